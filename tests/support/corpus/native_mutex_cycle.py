"""Shape: two threads each hold a plain pthread mutex and lock the other's (a lock-order inversion
in native code: the mutexes' owner fields name the cycle).

Thread A locks M1, thread B locks M2, then A locks M2 and B locks M1 (ctypes releases the GIL
around each call); the main thread joins them. A helper thread waits (/proc, bounded) until both
are in their futex waits, prints `ready`, and exits.
"""

import ctypes
import threading

import handshake


def main() -> None:
    libc = ctypes.CDLL(None)  # glibc >= 2.34 has pthread_* in libc
    m1, m2 = ctypes.create_string_buffer(64), ctypes.create_string_buffer(64)  # normal mutexes
    first = threading.Barrier(2)
    tids: list[int] = []

    def take(mine: ctypes.Array[ctypes.c_char], theirs: ctypes.Array[ctypes.c_char]) -> None:
        tids.append(threading.get_native_id())
        libc.pthread_mutex_lock(mine)
        first.wait(timeout=10)  # both hold their first mutex before either asks for the second
        libc.pthread_mutex_lock(theirs)

    workers = [threading.Thread(target=take, args=(m1, m2)), threading.Thread(target=take, args=(m2, m1))]
    for w in workers:
        w.start()
    handshake.ready_once_in(handshake.FUTEX, lambda: tids, count=2)
    for w in workers:
        w.join()


if __name__ == "__main__":
    main()
