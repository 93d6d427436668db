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
