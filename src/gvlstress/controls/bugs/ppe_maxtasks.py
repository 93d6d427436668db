"""ProcessPoolExecutor(max_tasks_per_child=2) stops replacing workers that retire: a retired
worker's replacement is skipped because `_adjust_process_count()` takes a stale token from
`_idle_worker_semaphore` (released on every completion, consumed only by submit()), so once both
workers retired the queued tasks have no worker and result() waits forever (CPython gh-115634,
https://github.com/python/cpython/issues/115634, same as gh-111498; fixed by
https://github.com/python/cpython/pull/140900, backported to 3.13 and 3.14 only). The app (a
child of this program) runs the executor; this program watches it through /proc.
Control: the upstream fix applied as a subclass: from the manager thread, replace a retired
worker whenever fewer than max_workers are alive."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import _ready

TASKS, WORKERS, LIMIT = 10, 2, 2


def task(i: int) -> int:
    time.sleep(0.1)
    return i


class FixedExecutor(ProcessPoolExecutor):
    """GH-140900: the manager thread (the replacement path) spawns a worker whenever fewer than
    max_workers are alive, without consulting the semaphore; submit()'s path is unchanged."""

    def _adjust_process_count(self) -> None:
        me: Any = self  # private attributes typeshed does not list
        if threading.current_thread() is me._executor_manager_thread:
            if len(me._processes) < me._max_workers:
                me._spawn_process()
            return
        super()._adjust_process_count()


def workers(app: int) -> list[int]:
    """The app's live workers (multiprocessing's resource tracker is a child too)."""
    return [
        k for k in _ready.children(app) if _ready.alive(k) and "resource_tracker" not in _ready.cmdline(k)
    ]


class Stranded:
    """Workers were seen, now none is left, and every thread of the app waits (its main thread
    for a result)."""

    def __init__(self, app: int) -> None:
        self.app, self.seen = app, False

    def __call__(self) -> bool:
        alive = _ready.workers(self.app)
        self.seen = self.seen or bool(alive)
        return (
            self.seen and not alive and _ready.waiting(self.app) and _ready.call_of(self.app) == _ready.FUTEX
        )


def main() -> None:
    if _ready.is_app() or _ready.control():
        executor = FixedExecutor if _ready.control() else ProcessPoolExecutor
        with executor(WORKERS, max_tasks_per_child=LIMIT) as ex:
            futures = [ex.submit(task, i) for i in range(TASKS)]
            got = [f.result(timeout=None if _ready.is_app() else 60) for f in futures]  # the app: forever
        assert got == list(range(TASKS)), got
        return
    app = _ready.app()
    _ready.settled(Stranded(app.pid), "stranded the queued tasks", stable=10)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
