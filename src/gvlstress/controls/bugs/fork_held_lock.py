"""Fork while another thread holds a lock (the logging-lock class of bpo-6721): the child
inherits the lock held by a thread it does not have, and its first acquire waits forever.
Control: os.register_at_fork takes the lock around fork() and releases it in both processes."""

import os

import _ready


def main() -> None:
    lock = _ready.held_lock(0.3 if _ready.control() else None)
    if _ready.control():
        os.register_at_fork(before=lock.acquire, after_in_parent=lock.release, after_in_child=lock.release)
    pid = os.fork()
    if pid == 0:
        with lock:  # held by the holder thread, which the child does not have
            os._exit(0)
    _ready.reap_or_announce(pid)


if __name__ == "__main__":
    main()
