"""Shape: a numba @njit(parallel=True) prange loop called over and over: numba's own thread pool
(its threading layer: omp, tbb or workqueue) computes, the main thread inside the compiled loop."""

from __future__ import annotations

import _field
import numba
import numpy as np


@numba.njit(parallel=True, cache=False)  # type: ignore[untyped-decorator]
def step(x: np.ndarray) -> float:
    total = 0.0
    for i in numba.prange(x.shape[0]):
        acc = 0.0
        for j in range(x.shape[1]):
            acc += np.sin(x[i, j]) * np.cos(x[i, j])
        total += acc
    return total


def main() -> None:
    numba.set_num_threads(min(4, numba.config.NUMBA_NUM_THREADS))
    x = np.random.default_rng(4).standard_normal((2000, 500))
    step(x)  # compiled, the pool started
    _field.ready()
    while not _field.over():
        step(x)


if __name__ == "__main__":
    main()
