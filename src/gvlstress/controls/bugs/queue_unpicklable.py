"""multiprocessing.Queue.put() of an object that cannot be pickled: put() returns at once, the
queue's feeder thread pickles the object later, fails, prints the traceback on stderr and drops
the item, so the consumer's get() waits forever for a result that was never sent (CPython
bpo-40195, https://github.com/python/cpython/issues/84376, open; "not a bug", pickling happens
in the feeder thread: https://github.com/python/cpython/issues/109554). Here a worker process
answers jobs on a results queue; its result keeps a threading.Lock (a handle to a cache). The
app (a child of this program) is the parent; the worker lives on, waiting for the next job,
while the parent waits for the lost result. This program watches the app through /proc.
Control: the worker pickles the result itself before put() (the feeder's failure then raises
in the worker, which sends the error instead): the parent gets it."""

from __future__ import annotations

import multiprocessing as mp
import pickle
import threading
from multiprocessing.queues import Queue
from typing import Any

import _ready


class Result:
    def __init__(self, job: int) -> None:
        self.job = job
        self.cache_lock = threading.Lock()  # TypeError: cannot pickle '_thread.lock' object


def worker(jobs: Queue[Any], results: Queue[Any], checked: bool) -> None:
    for job in iter(jobs.get, None):
        result: object = Result(job)
        if checked:
            try:
                pickle.dumps(result)
            except TypeError as exc:  # the fix: fail here, where it can be reported
                result = exc
        results.put(result)  # unchecked: returns at once; the feeder thread drops it


def lost(app: int) -> bool:
    """The worker waits for the next job (main thread in read(), its feeder thread idle), and
    the app's main thread waits in read() for the result."""
    kids = _ready.children(app)
    return (
        len(kids) == 1
        and len(_ready.tids(kids[0])) == 2
        and _ready.call_of(kids[0]) == _ready.NR["read"]
        and _ready.waiting(kids[0])
        and _ready.call_of(app) == _ready.NR["read"]
        and _ready.waiting(app)
    )


def main() -> None:
    if _ready.is_app() or _ready.control():
        ctx = mp.get_context("fork")
        jobs: Queue[Any] = ctx.Queue()
        results: Queue[Any] = ctx.Queue()
        p = ctx.Process(target=worker, args=(jobs, results, _ready.control()), daemon=True)
        p.start()
        jobs.put(1)
        got = results.get(timeout=None if _ready.is_app() else 60)  # the app: waits forever
        jobs.put(None)
        p.join(60)
        if not isinstance(got, TypeError):
            raise SystemExit(f"control: got {got!r}")
        return
    app = _ready.app()
    _ready.settled(lambda: lost(app.pid), "waited for the dropped result", stable=10)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
