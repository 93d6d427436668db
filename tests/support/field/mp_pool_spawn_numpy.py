"""Shape: multiprocessing.Pool(2) over spawn, both workers computing in numpy (matmuls on small
matrices that stay in cache: no new memory, no syscall); the launcher waits in map()."""

from __future__ import annotations

import multiprocessing as mp
import time

import _field
import numpy as np


def task(seconds: float) -> float:
    until = time.time() + seconds  # from the task's start
    rng = np.random.default_rng(0)
    a = rng.standard_normal((120, 120))
    b = rng.standard_normal((120, 120))
    while time.time() < until:
        a = (a @ b) / 11.0
    return float(a.sum())


def main() -> None:
    with mp.get_context("spawn").Pool(2) as pool:
        pending = pool.map_async(task, [_field.SECONDS + 0.5] * 2)
        workers = [p.pid for p in getattr(pool, "_pool", []) if p.pid]
        _field.settle(lambda: all(_field.state(w) == "R" for w in workers), "both workers computing")
        _field.ready()
        pending.get(timeout=_field.MAX_S + 30)


if __name__ == "__main__":
    main()
