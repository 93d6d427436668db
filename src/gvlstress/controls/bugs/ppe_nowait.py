"""ProcessPoolExecutor(max_tasks_per_child=1) shut down with wait=False: shutdown sets
`_processes` to None; when the worker retires at its limit, the manager thread's
`_adjust_process_count()` raises TypeError (len(None)) and the thread dies, so nothing delivers
the queued tasks' results and result() waits forever (CPython gh-119592,
https://github.com/python/cpython/issues/119592, and gh-132969,
https://github.com/python/cpython/issues/132969). The app (a child of this program) runs the
executor; this program watches it through /proc.
Control: the workaround both issues give, shutdown(wait=True) (collect the results first)."""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor

import _ready

TASKS = 3


def task(i: int) -> int:
    time.sleep(0.1)
    return i


class Stranded:
    """A worker was seen, now none is left, the app has only its main thread (waiting for a
    result) and the call queue's feeder (the manager thread is gone), both waiting."""

    def __init__(self, app: int) -> None:
        self.app, self.seen = app, False

    def __call__(self) -> bool:
        alive = _ready.workers(self.app)
        self.seen = self.seen or bool(alive)
        return (
            self.seen
            and not alive
            and len(_ready.tids(self.app)) == 2
            and _ready.waiting(self.app)
            and _ready.call_of(self.app) == _ready.FUTEX
        )


def main() -> None:
    if _ready.is_app() or _ready.control():
        ex = ProcessPoolExecutor(1, max_tasks_per_child=1)
        futures = [ex.submit(task, i) for i in range(TASKS)]
        ex.shutdown(wait=_ready.control())
        got = [f.result() for f in futures]  # the app: waits forever at the second
        assert got == list(range(TASKS)), got
        return
    app = _ready.app()
    _ready.settled(Stranded(app.pid), "stranded the queued tasks", stable=10)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
