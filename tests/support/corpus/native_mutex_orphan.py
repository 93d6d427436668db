"""Shape: a thread locks a plain pthread mutex and ends without unlocking it; the main thread
then locks it (the owner field names a thread that no longer exists).

A helper thread waits (/proc, bounded) until main is in its futex wait, prints `ready`, exits.
"""

import ctypes
import threading

import handshake


def main() -> None:
    libc = ctypes.CDLL(None)
    mutex = ctypes.create_string_buffer(64)
    holder = threading.Thread(target=libc.pthread_mutex_lock, args=(mutex,))
    holder.start()
    holder.join()  # it ended holding the mutex

    handshake.ready_once_in(handshake.FUTEX)
    libc.pthread_mutex_lock(mutex)  # waits for a thread that is gone


if __name__ == "__main__":
    main()
