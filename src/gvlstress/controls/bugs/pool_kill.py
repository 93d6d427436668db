"""A multiprocessing.Pool worker SIGKILLed in the middle of a task (as the OOM killer would): the
pool's worker handler reaps it and starts a replacement, but the task it held is never sent
again, so map() waits forever while every worker waits for a task (CPython bpo-22393, open:
https://github.com/python/cpython/issues/66587; fixes https://github.com/python/cpython/pull/10441
and /pull/16103 were closed unmerged). The app (a child of this program) runs the pool; this
program kills the worker from outside and watches the rest through /proc.
Control: the same work and the same kill on a ProcessPoolExecutor, which watches its workers'
sentinels and fails the pending futures with BrokenProcessPool (documented since 3.3)."""

from __future__ import annotations

import multiprocessing as mp
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import _ready

TASKS = 4


def task(i: int) -> int:
    time.sleep(0.5)
    return i


def main() -> None:
    if _ready.is_app():
        with mp.Pool(2) as pool:
            pool.map(task, range(TASKS))  # never returns: the killed worker's task is never re-run
        return
    if _ready.control():
        ex = ProcessPoolExecutor(2)
        futures = [ex.submit(task, i) for i in range(TASKS)]
        threading.Thread(target=_ready.kill_in_task, args=(lambda: list(ex._processes),), daemon=True).start()
        try:
            for f in futures:
                f.result(timeout=60)
        except BrokenProcessPool:
            ex.shutdown()
            return
        raise SystemExit("control: no BrokenProcessPool")
    app = _ready.app()
    victim = _ready.kill_in_task(lambda: _ready.children(app.pid))
    _ready.settled(lambda: _ready.task_lost(app.pid, victim), "lost the task", stable=10)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
