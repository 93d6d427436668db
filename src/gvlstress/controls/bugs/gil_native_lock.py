"""A GIL <-> native lock inversion, the shape of PyO3 Mutex/Once deadlocks, with real CPython: in
a child, a helper locks a pthread mutex (ctypes.CDLL releases the GIL for the call) then runs
Python; main locks the same mutex through ctypes.PyDLL, which keeps the GIL across the call.
Control: main locks with the GIL released (CDLL), and the helper unlocks when done."""

import subprocess
import sys

import _ready

CHILD = r"""
import ctypes, sys, threading
control = sys.argv[1:2] == ["control"]
m = ctypes.create_string_buffer(64)  # a zeroed pthread_mutex_t: a normal mutex
libc = ctypes.CDLL(None)
locked = threading.Event()
def holder():
    libc.pthread_mutex_lock(m)
    locked.set()
    n = 0
    while n < (10**6 if control else 10**18):  # Python code: needs the GIL
        n += 1
    libc.pthread_mutex_unlock(m)
threading.Thread(target=holder, name="holder", daemon=True).start()
locked.wait()
(libc if control else ctypes.PyDLL(None)).pthread_mutex_lock(m)
"""


def main() -> None:
    argv = [sys.executable, "-c", CHILD, *(["control"] if _ready.control() else [])]
    child = subprocess.Popen(argv)
    if _ready.control():
        sys.exit(child.wait(timeout=120))
    _ready.settled(lambda: _ready.parked(child.pid, threads=2), "deadlocked")
    _ready.announce(child.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
