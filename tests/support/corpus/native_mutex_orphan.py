"""Shape: a thread locks a plain pthread mutex and ends without unlocking it; the main thread
then locks it (the owner field names a thread that no longer exists).

A helper thread waits (/proc, bounded) until main is in its futex wait, prints `ready`, exits.
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
    holder = threading.Thread(target=libc.pthread_mutex_lock, args=(mutex,))
    holder.start()
    holder.join()  # it ended holding the mutex

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

    threading.Thread(target=helper, daemon=True).start()
    libc.pthread_mutex_lock(mutex)  # waits for a thread that is gone


if __name__ == "__main__":
    main()
