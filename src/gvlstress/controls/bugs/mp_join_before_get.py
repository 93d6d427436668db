"""The multiprocessing guideline "joining processes that use queues": a child puts a large item
on a Queue and its feeder blocks on the full pipe; the parent joins the child before get().
Control: get() before join()."""

import multiprocessing as mp
import os
import threading
from multiprocessing.queues import Queue

import _ready

WRITE, WAIT4 = "1", "61"


def child(q: "Queue[bytes]") -> None:
    q.put(b"x" * (10 << 20))


def main() -> None:
    ctx = mp.get_context("fork")
    q: Queue[bytes] = ctx.Queue()
    p = ctx.Process(target=child, args=(q,))
    p.start()
    if _ready.control():
        assert len(q.get(timeout=60)) == 10 << 20
        p.join(timeout=60)
        return
    me = os.getpid()

    def watch() -> None:
        _ready.settled(lambda: WRITE in _ready.syscalls(p.pid) and WAIT4 in _ready.syscalls(me), "blocked")
        _ready.announce(me)

    threading.Thread(target=watch, daemon=True).start()
    p.join()  # the child cannot exit while its feeder waits for this process to read


if __name__ == "__main__":
    main()
