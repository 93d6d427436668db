"""A loader whose threads are OpenBLAS's: numpy matrix products as batches.

    gvlstress run --target examples.numpy_loader:batches --workers 2 --rayon 2

``--rayon N`` sets the thread variables it declares (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS), read
by OpenBLAS when numpy is first imported in each worker; run.json records what each worker got.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np


def batches(n: int = 256, seed: int = 0, slot: int = 0) -> Iterator[np.ndarray]:
    """One n x n product per batch; seeded per worker slot."""
    rng = np.random.default_rng(seed + slot)
    a = rng.standard_normal((n, n))
    while True:
        a = np.tanh(a @ a.T / n)
        yield a


def describe() -> dict[str, Any]:
    return {
        "numpy": np.__version__,
        "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
        "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"),
        "os_threads": len(os.listdir("/proc/self/task")),
    }


batches.thread_env = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")  # type: ignore[attr-defined]
batches.describe = describe  # type: ignore[attr-defined]
