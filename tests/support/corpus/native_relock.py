"""Shape: a thread that locks a plain (non-recursive) pthread mutex it already holds.

Why it matters: one thread, an untimed private futex, flat CPU, nothing outside the process can
end it; the mutex's owner field (glibc records who locked it) names the waiting thread itself,
so the hang is a self-wait and is named so. A helper thread checks (/proc, bounded) that main is
in the futex wait, prints `ready`, and exits.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import ctypes
import os
import sys
import threading
import time

FUTEX = "202"  # x86_64


def main() -> None:
    libc = ctypes.CDLL(None)  # glibc >= 2.34 has pthread_* in libc
    mutex = ctypes.create_string_buffer(64)  # zeroed: PTHREAD_MUTEX_INITIALIZER, a normal mutex
    main_tid = threading.get_native_id()

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

    libc.pthread_mutex_lock(mutex)
    threading.Thread(target=helper, daemon=True).start()
    libc.pthread_mutex_lock(mutex)  # the second lock waits for the first, forever


if __name__ == "__main__":
    main()
