"""Shape: multiprocessing.Pool(2) over forkserver (Python 3.14's default start method on Linux)
whose tasks sleep (a slow request); the launcher waits in map(), untimed, as most code does; the
workers are the fork server's children, not the launcher's."""

from __future__ import annotations

import multiprocessing as mp
import time

import _field


def task(seconds: float) -> float:
    until = time.time() + seconds  # from the task's start
    while (left := until - time.time()) > 0:
        time.sleep(min(left, 4.0))  # a slow request
    return until


def main() -> None:
    with mp.get_context("forkserver").Pool(2) as pool:
        workers = [p.pid for p in getattr(pool, "_pool", []) if p.pid]
        pending = pool.map_async(task, [_field.SECONDS + 0.5] * 2)
        _field.settle(
            lambda: all(_field.in_calls(w, ["clock_nanosleep", "nanosleep"]) for w in workers),
            "both workers in their tasks' sleep",
        )
        _field.ready()
        pending.wait()  # untimed: the wait map() makes
        pending.get()


if __name__ == "__main__":
    main()
