"""Look-alike: the main thread waits to lock a plain pthread mutex that a live thread holds
while it works (a sleep, standing in for slow I/O), and then unlocks: healthy, it ends.

The same futex wait as a lock-order inversion's or a relock's, but the owner field names a live
thread that may still act. A helper prints `ready` once main waits; the holder unlocks after
60 s (the test kills the process long before).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import ctypes
import os
import sys
import threading
import time

FUTEX = "202"  # x86_64


def main() -> None:
    libc = ctypes.CDLL(None)
    mutex = ctypes.create_string_buffer(64)
    main_tid = threading.get_native_id()
    locked = threading.Event()

    def holder() -> None:
        libc.pthread_mutex_lock(mutex)
        locked.set()
        time.sleep(60)  # the holder's work (the behaviour under test: a slow holder)
        libc.pthread_mutex_unlock(mutex)

    def helper() -> None:
        deadline = time.monotonic() + 10.0
        while True:
            try:
                with open(f"/proc/self/task/{main_tid}/syscall") as fh:
                    if fh.read().split()[0] == FUTEX:
                        break
            except (OSError, IndexError):
                pass
            if time.monotonic() > deadline:
                print("main never waited", file=sys.stderr, flush=True)
                os._exit(3)
            time.sleep(0.02)
        print("ready", flush=True)

    threading.Thread(target=holder, daemon=True).start()
    locked.wait(timeout=10)
    threading.Thread(target=helper, daemon=True).start()
    libc.pthread_mutex_lock(mutex)
    libc.pthread_mutex_unlock(mutex)


if __name__ == "__main__":
    main()
