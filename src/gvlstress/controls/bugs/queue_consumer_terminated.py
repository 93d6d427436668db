"""multiprocessing.Queue consumers, one stopped with Process.terminate() while it waited in
get(): an idle consumer holds the queue's read lock (`_rlock`, a POSIX semaphore in shared
memory) while it reads the pipe, and SIGTERM ends it there without releasing it, so every other
consumer waits on that lock forever and the jobs put next are never taken (the warnings of the
multiprocessing docs, https://docs.python.org/3/library/multiprocessing.html#pipes-and-queues
and "Avoid terminating processes" in the programming guidelines; the same lock left by a killed
process in https://github.com/python/cpython/issues/96062). The app (a child of this program)
runs the consumers and terminates one; this program picks, through /proc, the consumer that
holds the lock (so that every run hangs) and tells the app its pid on stdin, then watches.
Control: the guidelines' way, a consumer is asked to stop (an Event it checks between timed
gets, which release the lock) instead of terminated: the others take the jobs."""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import subprocess
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from typing import Any

import _ready

CONSUMERS, JOBS = 3, 4
CTX = mp.get_context("fork")


def consume(jobs: Queue[Any], results: Queue[Any], stop: Event | None) -> None:
    while stop is None or not stop.is_set():
        try:
            job = jobs.get(timeout=None if stop is None else 0.1)
        except queue.Empty:
            continue
        results.put(job * 2)


def holder(app: int) -> int:
    """The consumer in read() on the jobs pipe (it holds the read lock) while the others wait
    on the lock; 0 until the consumers are in that state."""
    kids = _ready.workers(app)
    calls = {k: _ready.call_of(k) for k in kids}
    readers = [k for k, c in calls.items() if c == _ready.NR["read"]]
    others = [c for k, c in calls.items() if k not in readers]
    ok = len(kids) == CONSUMERS and len(readers) == 1 and all(c == _ready.FUTEX for c in others)
    return readers[0] if ok else 0


def stuck(app: int) -> bool:
    """The terminated consumer is reaped, the others wait on the lock, and the app's main
    thread (its feeder thread too) waits."""
    kids = _ready.workers(app)
    return (
        len(kids) == CONSUMERS - 1
        and all(_ready.shared_wait(k) for k in kids)
        and _ready.waiting(app)
        and _ready.call_of(app) == _ready.NR["read"]
    )


def main() -> None:
    if _ready.is_app() or _ready.control():
        jobs: Queue[Any] = CTX.Queue()
        results: Queue[Any] = CTX.Queue()
        stops = {i: CTX.Event() if _ready.control() else None for i in range(CONSUMERS)}
        procs = [CTX.Process(target=consume, args=(jobs, results, stops[i])) for i in range(CONSUMERS)]
        for p in procs:
            p.start()
        first = stops[0]
        if first is not None:  # the control
            first.set()  # asked to stop: it leaves between two gets, the lock released
            procs[0].join(60)
        else:
            victim = int(os.read(0, 64))  # the consumer waiting in get() with the lock
            next(p for p in procs if p.pid == victim).terminate()  # SIGTERM: no clean-up runs
        for i in range(JOBS):
            jobs.put(i)
        got = sorted(results.get(timeout=None if _ready.is_app() else 60) for _ in range(JOBS))
        assert got == [2 * i for i in range(JOBS)], got  # the app: never gets here
        for stop in stops.values():
            if stop is not None:
                stop.set()
        for p in procs[1:]:
            p.join(60)
        return
    app = _ready.app(stdin=subprocess.PIPE)
    assert app.stdin is not None
    _ready.settled(lambda: holder(app.pid) > 0, "saw a consumer holding the lock")
    app.stdin.write(f"{holder(app.pid)}\n".encode())
    app.stdin.flush()
    _ready.settled(lambda: stuck(app.pid), "stuck on the terminated consumer's lock", stable=10)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
