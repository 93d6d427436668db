"""A multiprocessing.Pool task whose C library calls exit(): the worker ends without a result
(Pool.worker catches only Exception, and a C exit() never returns), the pool replaces it and the
task is lost; map() waits forever while every worker waits for a task (CPython bpo-38084,
https://github.com/python/cpython/issues/82265, a duplicate of bpo-22393,
https://github.com/python/cpython/issues/66587; the sys.exit form:
https://github.com/python/cpython/pull/101081). The app (a child of this program) runs the pool;
this program watches it through /proc.
Control: the same task on a ProcessPoolExecutor, whose documented BrokenProcessPool is raised
"when one of the workers ... has terminated in a non-clean fashion"
(https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.process.BrokenProcessPool)."""

from __future__ import annotations

import ctypes
import multiprocessing as mp
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import _ready

TASKS = 4


def task(i: int) -> int:
    if i == 1:
        time.sleep(0.3)
        ctypes.CDLL(None).exit(3)  # what a C library's exit() does: atexit handlers, then _exit
    time.sleep(0.3)
    return i


def started(pid: int) -> int:
    """When the process started (clock ticks after boot)."""
    fields = _ready.stat(pid)
    return int(fields[19]) if len(fields) > 19 else 0


def lost(app: int) -> bool:
    """Two live workers, one a replacement (started at least 0.1 s after the other: the pool
    starts its first two together), wait for a task, none sleeps in one, and every thread of
    the app waits (its main thread for the result)."""
    workers = [k for k in _ready.children(app) if _ready.alive(k)]
    ticks = os.sysconf("SC_CLK_TCK")
    return (
        len(workers) == 2
        and abs(started(workers[0]) - started(workers[1])) >= ticks // 10
        and all(_ready.waiting(k) for k in workers)
        and _ready.waiting(app)
        and _ready.call_of(app) == _ready.FUTEX
    )


def main() -> None:
    if _ready.is_app():
        with mp.Pool(2) as pool:
            pool.map(task, range(TASKS))  # never returns
        return
    if _ready.control():
        with ProcessPoolExecutor(2) as ex:
            try:
                list(ex.map(task, range(TASKS), timeout=60))
            except BrokenProcessPool:
                return
        raise SystemExit("control: no BrokenProcessPool")
    app = _ready.app()
    _ready.settled(lambda: lost(app.pid), "lost the task", stable=10)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
