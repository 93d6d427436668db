"""A multiprocessing.Pool worker SIGKILLed while it waited, idle, for a task: an idle worker
waits inside SimpleQueue.get() holding the task queue's read lock (`_inqueue._rlock`, a POSIX
semaphore in shared memory) while it reads the pipe, so killed there (the OOM killer, a `kill`)
it never releases it. The pool replaces it, but the replacement and every sibling wait on that
semaphore forever: the tasks submitted next stay in the pipe and map() never returns (CPython
gh-96062, https://github.com/python/cpython/issues/96062, open; the family of bpo-22393,
https://github.com/python/cpython/issues/66587, whose fixes were closed unmerged). The app (a
child of this program) runs the pool; this program kills the worker from outside, tells the
app to go on (a line on its stdin), and watches it through /proc.
Control: the same kill on a ProcessPoolExecutor, which watches its workers' sentinels and fails
the pool with BrokenProcessPool (documented since 3.3) instead of waiting on the lock."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import _ready

WORKERS, TASKS = 2, 4


def task(i: int) -> int:
    return i


def kill_reader(workers: Callable[[], list[int]]) -> int:
    """SIGKILL the idle worker that holds the task queue's read lock: the one in read() on the
    pipe while the others wait on the lock (a futex); its pid."""
    holder: list[int] = []

    def one_reads() -> bool:
        alive = workers()
        calls = {k: _ready.call_of(k) for k in alive}
        readers = [k for k, c in calls.items() if c == _ready.NR["read"]]
        holder[:] = readers
        return (
            len(alive) == WORKERS
            and len(readers) == 1
            and all(c == _ready.FUTEX for k, c in calls.items() if k not in readers)
        )

    _ready.settled(one_reads, "saw an idle worker holding the queue's lock", stable=5)
    os.kill(holder[0], signal.SIGKILL)
    return holder[0]


def replaced(pid: int, victim: int) -> bool:
    """The victim is reaped and a replacement started: WORKERS live workers, all waiting on the
    lock."""
    alive = _ready.workers(pid)
    return (
        victim not in _ready.children(pid)
        and len(alive) == WORKERS
        and all(_ready.shared_wait(k) for k in alive)
    )


def stuck(app: int) -> bool:
    """Every worker waits on the lock, and every thread of the app waits (its main thread for
    the results)."""
    alive = _ready.workers(app)
    return (
        len(alive) == WORKERS
        and all(_ready.shared_wait(k) for k in alive)
        and _ready.waiting(app)
        and _ready.call_of(app) == _ready.FUTEX
    )


def main() -> None:
    if _ready.is_app():
        with mp.get_context("fork").Pool(WORKERS) as pool:
            pool.map(task, range(WORKERS))  # both workers started and idle
            # the worker that held the queue's lock is dead: a raw read, as sys.stdin's buffer
            # lock, held by this thread, would be copied locked into the replacement's fork
            os.read(0, 64)
            pool.map(task, range(TASKS))  # never returns: no worker can take the lock
        return
    if _ready.control():
        ex = ProcessPoolExecutor(WORKERS, mp_context=mp.get_context("fork"))
        assert list(ex.map(task, range(WORKERS))) == list(range(WORKERS))
        kill_reader(lambda: [p.pid for p in list(ex._processes.values()) if p.is_alive() and p.pid])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                ex.submit(task, 0).result(timeout=60)
            except BrokenProcessPool:
                ex.shutdown()
                return
            time.sleep(0.05)  # the manager thread has not seen the dead worker yet: submit again
        raise SystemExit("control: no BrokenProcessPool")
    app = _ready.app(stdin=subprocess.PIPE)
    assert app.stdin is not None
    victim = kill_reader(lambda: _ready.workers(app.pid))
    _ready.settled(lambda: replaced(app.pid, victim), "replaced the killed worker")
    app.stdin.write(b"go\n")
    app.stdin.flush()
    _ready.settled(lambda: stuck(app.pid), "stuck on the dead worker's lock", stable=10)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
