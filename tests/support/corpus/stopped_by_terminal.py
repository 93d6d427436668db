"""Shape: a tool in a process group of its own sets its terminal's modes (tcsetattr) from the
background and is stopped by job control (SIGTTOU); the shell that started it waits for its exit
without WUNTRACED, so it never hears of the stop, and nothing in the tree does job control: the
tool stays stopped, the shell waits, and the terminal emulator above reads the pty forever.

    stopped_by_terminal.py [hang|alike]

``alike``: the shell does job control as a real one does: it waits with WUNTRACED, hears of the
stop, holds it for HOLD_S seconds (a timer), then gives the tool the terminal and continues it
(``fg``): the tool ends, the shell ends, the emulator reads EOF and ends.

The emulator (this process) prints ``look SHELL`` and ``ready`` once /proc shows the tool
stopped and the shell in its wait (wait4, or the alike's sleep).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import os
import pty
import signal
import sys
import termios
import time

HOLD_S = 20.0
WAIT4, SLEEP = "61", "230"
"""x86_64 syscall numbers as /proc/PID/syscall prints them."""


def _tool() -> None:
    os.setpgrp()  # a group of its own: the background of the shell's terminal
    termios.tcsetattr(0, termios.TCSANOW, termios.tcgetattr(0))  # SIGTTOU: stopped here
    os._exit(0)


def _shell(alike: bool) -> None:
    tool = os.fork()
    if tool == 0:
        _tool()
    print(f"tool {tool}", flush=True)
    if not alike:
        os.waitpid(tool, 0)  # no WUNTRACED: the stop is never reported to it
        os._exit(0)
    _, status = os.waitpid(tool, os.WUNTRACED)
    if os.WIFSTOPPED(status):
        time.sleep(HOLD_S)
        os.tcsetpgrp(0, tool)  # fg: the terminal to the tool's group, then continue it
        os.killpg(tool, signal.SIGCONT)
        os.waitpid(tool, 0)
    os._exit(0)


def _state(pid: int) -> tuple[str, str]:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            stat = fh.read()
        with open(f"/proc/{pid}/syscall") as fh:
            call = fh.read().split()
    except OSError:
        return "", ""
    return stat[stat.rfind(")") + 2], (call[0] if call else "")


def main() -> None:
    alike = sys.argv[1:] == ["alike"]
    shell, master = pty.fork()
    if shell == 0:
        _shell(alike)
    seen = b""
    while b"\n" not in seen.partition(b"tool ")[2]:
        seen += os.read(master, 1024)
    tool = int(seen.partition(b"tool ")[2].split()[0])
    deadline = time.monotonic() + 10.0
    while _state(tool)[0] != "T" or _state(shell) != ("S", SLEEP if alike else WAIT4):
        if time.monotonic() > deadline:
            print("the wait never started", file=sys.stderr, flush=True)
            os._exit(3)
        time.sleep(0.02)  # a /proc poll with a deadline
    print(f"look {shell}", flush=True)
    print("ready", flush=True)
    try:
        while os.read(master, 1024):
            pass
    except OSError:  # EIO: every holder of the slave has gone (the alike's end)
        pass
    os.waitpid(shell, 0)


if __name__ == "__main__":
    main()
