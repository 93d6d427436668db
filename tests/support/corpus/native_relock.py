"""Shape: a thread that locks a plain (non-recursive) pthread mutex it already holds.

Why it matters: one thread, an untimed private futex, flat CPU, nothing outside the process can
end it; the mutex's owner field (glibc records who locked it) names the waiting thread itself,
so the hang is a self-wait and is named so. A helper thread checks (/proc, bounded) that main is
in the futex wait, prints `ready`, and exits.
"""

import ctypes

import handshake


def main() -> None:
    libc = ctypes.CDLL(None)  # glibc >= 2.34 has pthread_* in libc
    mutex = ctypes.create_string_buffer(64)  # zeroed: PTHREAD_MUTEX_INITIALIZER, a normal mutex

    libc.pthread_mutex_lock(mutex)
    handshake.ready_once_in(handshake.FUTEX)
    libc.pthread_mutex_lock(mutex)  # the second lock waits for the first, forever


if __name__ == "__main__":
    main()
