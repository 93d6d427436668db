"""Shape: joblib Parallel(n_jobs=2, backend="loky") over numpy tasks on large arrays (joblib
memory-maps them into the workers); the launcher waits for the batch."""

from __future__ import annotations

import _field
import numpy as np
from joblib import Parallel, delayed


def task(x: np.ndarray, seed: int) -> float:
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((x.shape[1], 64))
    return float(np.tanh(x @ w).sum())


def main() -> None:
    x = np.random.default_rng(7).standard_normal((20_000, 128))  # 20 MB: memory-mapped to the workers
    with Parallel(n_jobs=2, backend="loky", max_nbytes="1M") as parallel:
        parallel(delayed(task)(x, s) for s in range(2))
        _field.ready()
        seed = 0
        while not _field.over():
            parallel(delayed(task)(x, seed + s) for s in range(8))
            seed += 8


if __name__ == "__main__":
    main()
