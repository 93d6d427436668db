"""A native library's fork handler (registered with pthread_atfork, as C extensions do) takes, in
the child, a lock another thread of the parent held at fork(): the child never returns from
fork(), and py-spy still lists the parent's threads. Control: POSIX's protocol, the prepare
handler takes the lock before fork() and the parent and child handlers release it."""

import ctypes
import os
import sys
import threading

import _ready

HANDLER = ctypes.CFUNCTYPE(None)


def main() -> None:
    control = _ready.control()
    lock = threading.Lock()
    held = threading.Event()

    def holder() -> None:
        with lock:
            held.set()
            threading.Event().wait(0.3 if control else None)

    threading.Thread(target=holder, name="holder", daemon=True).start()
    held.wait()
    libc = ctypes.CDLL(None)  # glibc exports pthread_atfork's worker as __register_atfork
    if control:
        handlers = (HANDLER(lock.acquire), HANDLER(lock.release), HANDLER(lock.release))
    else:
        handlers = (HANDLER(0), HANDLER(0), HANDLER(lock.acquire))
    libc.__register_atfork(*handlers, None)
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    if control:
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
    _ready.settled(lambda: _ready.parked(pid, threads=1), "parked")
    _ready.announce(pid)
    _ready.forever()


if __name__ == "__main__":
    main()
