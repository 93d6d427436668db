"""Shape: a child waits in pause() for its alarm, which came and waits in a signal mask it
inherited (the parent's thread blocked SIGALRM, as an application server does; fork and exec keep
the mask), while the parent reads the child's output.

Why it matters: the child catches SIGALRM, so a look that counts handlers would call its pause()
a wait a timer ends; but the alarm is pending and blocked (``SigPnd``/``ShdPnd`` and ``SigBlk``
in its status): its handler cannot run, only a kill or Ctrl-C ends it, and the parent's read
waits on it. A helper thread prints `ready` once /proc shows the child in pause() with the
signal pending (bounded: exit 3), then exits.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import signal
import subprocess
import sys
import threading
import time

CHILD = (
    "import signal\n"
    "signal.signal(signal.SIGALRM, lambda *_: None)\n"
    "signal.setitimer(signal.ITIMER_REAL, 0.05)\n"
    "signal.pause()\n"
)
PAUSE = "34"
"""x86_64 pause(), as /proc/PID/syscall prints it."""


def _stranded(pid: int) -> bool:
    """The child sleeps in pause() with SIGALRM pending."""
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            if fh.read().split()[0] != PAUSE:
                return False
        with open(f"/proc/{pid}/status") as fh:
            status = dict(line.split(":\t", 1) for line in fh.read().splitlines() if ":\t" in line)
    except (OSError, IndexError):
        return False
    return bool(int(status.get("ShdPnd", "0"), 16) & (1 << (signal.SIGALRM - 1)))


def _ready(pid: int) -> None:
    deadline = time.monotonic() + 10.0
    while not _stranded(pid):
        if time.monotonic() > deadline:
            print("the wait never started", file=sys.stderr, flush=True)
            os._exit(3)
        time.sleep(0.02)  # a /proc poll with a deadline
    print("ready", flush=True)


def main() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE)
    threading.Thread(target=_ready, args=(child.pid,), daemon=True).start()
    child.communicate()


if __name__ == "__main__":
    main()
