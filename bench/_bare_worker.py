"""Baseline worker for bench/overhead.py: the same loop with no harness around it."""

from __future__ import annotations

import os
import time


def iterate(rayon: int, seed: int, duration: float) -> tuple[int, float]:
    os.environ["RAYON_NUM_THREADS"] = str(rayon)
    import gvlstress_native

    loader = gvlstress_native.Loader(seed=seed)
    started = time.monotonic()
    done = 0
    while time.monotonic() - started < duration:
        loader.next_batch()
        done += 1
    return done, time.monotonic() - started
