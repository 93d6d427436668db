"""A native library's fork handler (registered with pthread_atfork, as C extensions do) takes, in
the child, a lock another thread of the parent held at fork(): the child never returns from
fork(), and py-spy still lists the parent's threads. Control: POSIX's protocol, the prepare
handler takes the lock before fork() and the parent and child handlers release it."""

import ctypes
import os

import _ready

HANDLER = ctypes.CFUNCTYPE(None)


def main() -> None:
    control = _ready.control()
    lock = _ready.held_lock(0.3 if control else None)
    libc = ctypes.CDLL(None)  # glibc exports pthread_atfork's worker as __register_atfork
    if control:
        handlers = (HANDLER(lock.acquire), HANDLER(lock.release), HANDLER(lock.release))
    else:
        handlers = (HANDLER(0), HANDLER(0), HANDLER(lock.acquire))
    libc.__register_atfork(*handlers, None)
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    _ready.reap_or_announce(pid)


if __name__ == "__main__":
    main()
