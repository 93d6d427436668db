"""Shape: a thread holds a plain pthread mutex (it sleeps in its critical section) when the main
thread forks; the child locks the mutex: its copy stays locked by a thread that exists only in
the parent (the owner field names a thread of another process).

Prints `look PID` (the child) and `ready` once the child waits; the parent waits for the child.
"""

# ruff: noqa: T201  (printing `look` is the protocol)

import ctypes
import os
import threading
import time

import handshake


def main() -> None:
    libc = ctypes.CDLL(None)
    mutex = ctypes.create_string_buffer(64)
    held = threading.Event()

    def hold() -> None:
        libc.pthread_mutex_lock(mutex)
        held.set()
        time.sleep(3600)  # inside its critical section (the behaviour under test: a slow holder)

    threading.Thread(target=hold, daemon=True).start()
    held.wait(timeout=10)
    child = os.fork()
    if child == 0:
        handshake.ready_once_in(handshake.FUTEX)
        libc.pthread_mutex_lock(mutex)  # a copy locked by a thread that did not come along
        os._exit(0)
    print(f"look {child}", flush=True)
    os.waitpid(child, 0)


if __name__ == "__main__":
    main()
