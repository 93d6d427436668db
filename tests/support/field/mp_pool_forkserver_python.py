"""Shape: multiprocessing.Pool(2) over forkserver, both workers computing in plain Python; the
launcher waits in map(); the fork server waits for the next request."""

from __future__ import annotations

import multiprocessing as mp
import time

import _field


def task(seconds: float) -> int:
    until = time.time() + seconds  # from the task's start
    n = 0
    while time.time() < until:
        n = (n * 17 + 3) % 999_983
    return n


def main() -> None:
    with mp.get_context("forkserver").Pool(2) as pool:
        pending = pool.map_async(task, [_field.SECONDS + 0.5] * 2)
        workers = [p.pid for p in getattr(pool, "_pool", []) if p.pid]
        _field.settle(lambda: all(_field.state(w) == "R" for w in workers), "both workers computing")
        _field.ready()
        pending.get(timeout=_field.MAX_S + 30)


if __name__ == "__main__":
    main()
