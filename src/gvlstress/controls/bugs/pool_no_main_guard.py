"""A multiprocessing.Pool started at a script's top level, with no `if __name__ == "__main__":`
guard, under the spawn start method (the default on macOS and Windows, chosen on Linux to
avoid fork): each worker re-runs the main module to bootstrap, reaches the Pool again and dies
with "An attempt has been made to start a new process before the current process has finished
its bootstrapping phase" (exit 1); the pool replaces it at once, and map() never returns while
workers come and go (the docs' "Safe importing of main module",
https://docs.python.org/3/library/multiprocessing.html#the-spawn-and-forkserver-start-methods;
a real instance: https://github.com/AI4EPS/GaMMA/pull/32, "'spawn' runs into an infinite loop
on Linux"). The app (a child of this program, whose top level below is the unguarded script)
runs the pool; this program watches it through /proc.
Control: the documented idiom, the same pool under the `__main__` guard: map() returns."""

from __future__ import annotations

import multiprocessing as mp

import _ready

WORKERS, TASKS, SEEN = 2, 4, 6


def task(i: int) -> int:
    return i


def run_pool() -> list[int]:
    with mp.get_context("spawn").Pool(WORKERS) as pool:
        return pool.map(task, range(TASKS))


# The app's script body, at top level as in the reports: a spawned worker re-runs it while it
# imports this file as __mp_main__ (with the parent's argv), so it reaches the Pool again.
if _ready.is_app():
    run_pool()  # in the app: never returns; in each worker: RuntimeError, exit 1


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
    if _ready.control():
        assert run_pool() == list(range(TASKS))  # under the guard: the workers skip it
        return
    app = _ready.app()
    _ready.settled(Churning(app.pid), "respawned its dying workers", stable=10, timeout=80)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__" and not _ready.is_app():
    main()
