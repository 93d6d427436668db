"""Shape: multiprocessing.Pool(3) over fork whose tasks sleep (waiting on I/O, a rate limit, a
remote service); the launcher waits in map() while all three workers sleep."""

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
    with mp.get_context("fork").Pool(3) as pool:
        pending = pool.map_async(task, [_field.SECONDS + 0.5] * 3)
        workers = [p.pid for p in getattr(pool, "_pool", []) if p.pid]
        _field.settle(
            lambda: all(_field.in_calls(w, ["clock_nanosleep", "nanosleep"]) for w in workers),
            "all workers in their tasks' sleep",
        )
        _field.ready()
        pending.get(timeout=_field.MAX_S + 30)


if __name__ == "__main__":
    main()
