"""Shape: a GIL <-> native lock inversion, with real CPython and a real pthread mutex.

Why it matters: the shape of PyO3 hangs where a thread holding the GIL blocks on a Rust
Mutex/Once whose holder waits for the GIL. Here, in the child: a helper thread locks a pthread
mutex (through ctypes.CDLL, which releases the GIL for the call) and then runs Python, which
needs the GIL; the main thread calls pthread_mutex_lock through ctypes.PyDLL, which keeps the
GIL across the call. Main waits on the mutex holding the GIL; the helper holds the mutex and
waits for the GIL in take_gil. No Python thread can run, so this launcher polls the child's
/proc (bounded), prints `child <pid>` and `ready`, then sleeps.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import subprocess
import sys
import time

CHILD = r"""
import ctypes, threading
m = ctypes.create_string_buffer(64)  # a zeroed pthread_mutex_t: a normal mutex
locked = threading.Event()
def holder():
    ctypes.CDLL(None).pthread_mutex_lock(m)  # GIL released during the call
    locked.set()
    n = 0
    while True:  # Python code: needs the GIL, which main will not give back
        n += 1
threading.Thread(target=holder, name="holder", daemon=True).start()
locked.wait()
ctypes.PyDLL(None).pthread_mutex_lock(m)  # holds the GIL while it waits for the mutex
"""
FUTEX = "202"  # x86_64


def futex_waits(pid: int) -> list[str]:
    out = []
    try:
        for tid in __import__("os").listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/syscall") as fh:
                out.append(fh.read().split()[0])
    except (OSError, IndexError):
        return []
    return out


def main() -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD])
    deadline = time.monotonic() + 20.0
    stable = 0
    while stable < 5:  # both threads on futexes for 5 polls in a row
        if time.monotonic() > deadline:
            print("child never deadlocked", file=sys.stderr, flush=True)
            child.kill()
            sys.exit(3)
        waits = futex_waits(child.pid)
        stable = stable + 1 if len(waits) == 2 and all(w == FUTEX for w in waits) else 0
        time.sleep(0.05)
    print(f"child {child.pid}", flush=True)
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
