import os
import pty
import signal
import subprocess
import sys
import threading
import time


def children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    st = f.read().rsplit(")", 1)[1].split()
                if int(st[1]) == pid:
                    out.append(int(d))
            except OSError:
                pass
    return out


def state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "?"


def run(mode: str, fg_after: float | None = None) -> None:
    """This process plays the terminal emulator; its child on a new pty plays the shell that runs the tool
    in the foreground and waits for it (waitpid without WUNTRACED, as a script's `wait` does)."""
    pid, master = pty.fork()
    if pid == 0:
        tool = subprocess.Popen([sys.executable, "checkbuild.py", mode])
        if fg_after is not None:
            def job_control() -> None:        # the shell's `fg` after fg_after seconds
                time.sleep(fg_after)
                os.tcsetpgrp(0, tool.pid)
                os.killpg(tool.pid, signal.SIGCONT)
            threading.Thread(target=job_control, daemon=True).start()
        rc = tool.wait()
        os._exit(rc)
    out = b""
    deadline = time.time() + 20
    tool = None
    while time.time() < deadline:
        kids = children(pid)
        if kids and kids[0] != tool:
            tool = kids[0]
        if tool and (state(tool) == "T" or state(tool) == "?"):
            break
        time.sleep(0.05)
    print("ready", flush=True)
    while True:                                   # the terminal emulator copies the pty output until EOF
        try:
            chunk = os.read(master, 1024)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    print("session ended:", out.decode(errors="replace").strip(), os.waitstatus_to_exitcode(status), flush=True)
