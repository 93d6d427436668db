"""Fork while another thread holds a lock (the logging-lock class of bpo-6721): the child
inherits the lock held by a thread it does not have, and its first acquire waits forever.
Control: os.register_at_fork takes the lock around fork() and releases it in both processes."""

import os
import sys
import threading

import _ready


def main() -> None:
    lock = threading.Lock()
    held = threading.Event()
    release = threading.Event()

    def holder() -> None:
        with lock:
            held.set()
            release.wait(0.3 if _ready.control() else None)

    if _ready.control():
        os.register_at_fork(before=lock.acquire, after_in_parent=lock.release, after_in_child=lock.release)
    threading.Thread(target=holder, name="holder", daemon=True).start()
    held.wait()
    pid = os.fork()
    if pid == 0:
        with lock:  # held by the holder thread, which the child does not have
            os._exit(0)
    if _ready.control():
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
    _ready.settled(lambda: _ready.parked(pid, threads=1), "parked")
    _ready.announce(pid)
    _ready.forever()


if __name__ == "__main__":
    main()
