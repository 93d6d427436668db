"""Baseline worker for bench/overhead.py: the same loop with no harness around it."""

from __future__ import annotations

import os
import time
from typing import Any

_barrier: Any = None


def init(barrier: Any) -> None:
    """Same start as under gvlstress: every worker waits for all, then they iterate together."""
    global _barrier
    _barrier = barrier


def iterate(rayon: int, seed: int, duration: float) -> tuple[int, float]:
    if _barrier is not None:
        _barrier.wait(60)
    os.environ["RAYON_NUM_THREADS"] = str(rayon)
    import gvlstress_native

    loader = gvlstress_native.Loader(seed=seed)
    started = time.monotonic()
    done = 0
    while time.monotonic() - started < duration:
        loader.next_batch()
        done += 1
    return done, time.monotonic() - started


def batches(rayon: int, seed: int, n: int) -> int:
    """`n` batches of a fresh loader: one bare worker of one wave (bench/waves_per_hour.py)."""
    if _barrier is not None:
        _barrier.wait(60)
    os.environ["RAYON_NUM_THREADS"] = str(rayon)
    import gvlstress_native

    loader = gvlstress_native.Loader(seed=seed)
    for _ in range(n):
        loader.next_batch()
    return n


def main(waves: int, workers: int, rayon: int, n: int) -> None:
    """The bare loop of bench/waves_per_hour.py: one spawn pool per wave, nothing else."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    ctx = get_context("spawn")
    for wave in range(waves):
        with ProcessPoolExecutor(
            workers, mp_context=ctx, initializer=init, initargs=(ctx.Barrier(workers),)
        ) as ex:
            seeds = [wave * 1000 + s for s in range(workers)]
            assert sum(ex.map(batches, [rayon] * workers, seeds, [n] * workers)) == workers * n


if __name__ == "__main__":
    import sys

    main(*(int(a) for a in sys.argv[1:5]))
