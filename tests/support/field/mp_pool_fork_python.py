"""Shape: multiprocessing.Pool(2) over fork, both workers computing in plain Python; the launcher
waits in map() for the results (issue 42's first false alarm: a pool that computes for 50 s)."""

from __future__ import annotations

import multiprocessing as mp
import time

import _field


def task(seconds: float) -> int:
    until = time.time() + seconds  # from the task's start
    n = 0
    while time.time() < until:
        n = (n * 31 + 7) % 1_000_003  # Python bytecode all along: no memory touched, no syscall
    return n


def main() -> None:
    with mp.get_context("fork").Pool(2) as pool:
        pending = pool.map_async(task, [_field.SECONDS + 0.5] * 2)
        _field.settle(lambda: all(_field.state(c) == "R" for c in pool_pids(pool)), "both workers computing")
        _field.ready()
        pending.get(timeout=_field.MAX_S + 5)


def pool_pids(pool: object) -> list[int]:
    return [p.pid for p in getattr(pool, "_pool", []) if p.pid]


if __name__ == "__main__":
    main()
