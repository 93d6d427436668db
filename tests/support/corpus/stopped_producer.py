"""Shape: a parent blocked in read() on a pipe whose only writer, its child, is stopped
(SIGSTOP). Not a deadlock (`kill -CONT` resumes it) but not idle either: the report should name
the stopped writer. Prints `child PID`, then `ready` once the child is stopped and the parent's
reading thread is in read() (a /proc poll from a helper thread, which then ends).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import signal
import subprocess
import sys
import threading
import time

CHILD = "import os, signal, sys; os.kill(os.getpid(), signal.SIGSTOP); os.write(int(sys.argv[1]), b'x')"


def state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "?"


def in_read(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            return fh.read().split()[0] == "0"
    except (OSError, IndexError):
        return False


def announce(child: int, parent: int) -> None:
    end = time.monotonic() + 60
    while time.monotonic() < end and not (state(child) == "T" and in_read(parent)):
        time.sleep(0.01)  # polling /proc
    print("ready", flush=True)


def main() -> None:
    r, w = os.pipe()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(w)], pass_fds=(w,))
    os.close(w)
    print(f"child {child.pid}", flush=True)
    threading.Thread(target=announce, args=(child.pid, os.getpid()), daemon=True).start()
    os.read(r, 1)
    child.send_signal(signal.SIGCONT)
    child.wait()


if __name__ == "__main__":
    main()
