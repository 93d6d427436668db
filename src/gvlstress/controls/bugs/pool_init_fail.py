"""A multiprocessing.Pool whose initializer raises: each worker dies at start (exit 1, its
traceback on stderr) before it takes a task, the pool's worker handler starts a replacement at
once, which dies the same way, and map() never returns while workers come and go (CPython
bpo-43306, https://github.com/python/cpython/issues/87472, open; a real instance:
https://github.com/zeldaret/oot/pull/2297). The app (a child of this program) runs the pool;
this program watches it through /proc.
Control: the same initializer on a ProcessPoolExecutor, documented to raise BrokenProcessPool
for every pending and later job once an initializer failed (3.7+)."""

from __future__ import annotations

import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import _ready

WORKERS, TASKS, SEEN = 2, 4, 10
MODEL = "/nonexistent/gvlstress-model.bin"
WEIGHTS: list[bytes] = []


def init() -> None:
    """Load what every task needs: a missing file (a bad path, an unmounted volume) raises."""
    with open(MODEL, "rb") as fh:
        WEIGHTS.append(fh.read())


def task(i: int) -> int:
    return i


class Churning:
    """Workers come and go: at least SEEN distinct worker pids seen since the first call, and
    every thread of the app waits (its main thread for the results)."""

    def __init__(self, app: int) -> None:
        self.app = app
        self.seen: set[int] = set()

    def __call__(self) -> bool:
        self.seen.update(_ready.workers(self.app))
        return len(self.seen) >= SEEN and _ready.call_of(self.app) == _ready.FUTEX


def main() -> None:
    ctx = mp.get_context("fork")
    if _ready.is_app():
        with ctx.Pool(WORKERS, initializer=init) as pool:
            pool.map(task, range(TASKS))  # never returns: no worker lives to take a task
        return
    if _ready.control():
        with ProcessPoolExecutor(WORKERS, mp_context=ctx, initializer=init) as ex:
            try:
                list(ex.map(task, range(TASKS), timeout=60))
            except BrokenProcessPool:
                return
        raise SystemExit("control: no BrokenProcessPool")
    app = _ready.app()
    _ready.settled(Churning(app.pid), "respawned its dying workers", stable=10, timeout=60)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
