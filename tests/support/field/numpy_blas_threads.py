"""Shape: OpenBLAS with 4 threads on a 2-core machine (oversubscribed), a loop of large matmuls:
the BLAS threads spin and park between calls, the main thread mostly inside BLAS."""

from __future__ import annotations

import os

os.environ["OPENBLAS_NUM_THREADS"] = "4"

import _field
import numpy as np


def main() -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((400, 400))
    b = rng.standard_normal((400, 400))
    c = a @ b  # the BLAS threads start here
    _field.ready()
    while not _field.over():
        c = a @ b
        a = c / (np.abs(c).max() + 1.0)


if __name__ == "__main__":
    main()
