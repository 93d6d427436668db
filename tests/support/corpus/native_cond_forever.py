"""Shape: the main thread waits on a pthread condition variable nothing will ever signal.

Why it matters: a closed wait set no named shape explains (one thread, an untimed private futex
that is no mutex, flat CPU, nothing outside the process can end it): a permanent hang `inspect`
must exit 1 on, named by its end. A helper thread checks (/proc, bounded) that main is in the
futex wait, prints `ready`, and exits.
"""

import ctypes

import handshake


def main() -> None:
    libc = ctypes.CDLL(None)  # glibc >= 2.34 has pthread_* in libc
    mutex = ctypes.create_string_buffer(64)  # zeroed: PTHREAD_MUTEX_INITIALIZER
    cond = ctypes.create_string_buffer(64)  # zeroed: PTHREAD_COND_INITIALIZER

    libc.pthread_mutex_lock(mutex)
    handshake.ready_once_in(handshake.FUTEX)
    libc.pthread_cond_wait(cond, mutex)  # nothing signals it


if __name__ == "__main__":
    main()
