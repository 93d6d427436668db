"""Look-alike: the main thread waits to lock a plain pthread mutex that a live thread holds
while it works (a sleep, standing in for slow I/O), and then unlocks: healthy, it ends.

The same futex wait as a lock-order inversion's or a relock's, but the owner field names a live
thread that may still act. A helper prints `ready` once main waits; the holder unlocks after
60 s (the test kills the process long before).
"""

import ctypes
import threading
import time

import handshake


def main() -> None:
    libc = ctypes.CDLL(None)
    mutex = ctypes.create_string_buffer(64)
    locked = threading.Event()

    def holder() -> None:
        libc.pthread_mutex_lock(mutex)
        locked.set()
        time.sleep(60)  # the holder's work (the behaviour under test: a slow holder)
        libc.pthread_mutex_unlock(mutex)

    threading.Thread(target=holder, daemon=True).start()
    locked.wait(timeout=10)
    handshake.ready_once_in(handshake.FUTEX)
    libc.pthread_mutex_lock(mutex)
    libc.pthread_mutex_unlock(mutex)


if __name__ == "__main__":
    main()
