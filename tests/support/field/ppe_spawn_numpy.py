"""Shape: concurrent.futures.ProcessPoolExecutor(2) over spawn, both workers computing in numpy;
the launcher waits on the futures (issue 42: called a deadlock at the first look)."""

from __future__ import annotations

import multiprocessing as mp
import time
from concurrent.futures import ProcessPoolExecutor

import _field
import numpy as np


def task(seconds: float) -> float:
    until = time.time() + seconds
    rng = np.random.default_rng(1)
    a = rng.standard_normal((120, 120))
    b = rng.standard_normal((120, 120))
    while time.time() < until:
        a = (a @ b) / 11.0
    return float(a.sum())


def main() -> None:
    with ProcessPoolExecutor(2, mp_context=mp.get_context("spawn")) as ex:
        futures = [ex.submit(task, _field.SECONDS + 0.5) for _ in range(2)]

        def computing() -> bool:
            workers = [p.pid for p in getattr(ex, "_processes", {}).values() if p.pid]
            return len(workers) == 2 and all(_field.state(w) == "R" for w in workers)

        _field.settle(computing, "both workers computing")
        _field.ready()
        for f in futures:
            f.result(timeout=_field.MAX_S + 30)


if __name__ == "__main__":
    main()
