"""Shape: concurrent.futures.ThreadPoolExecutor(4) running numpy matmuls (the GIL released inside
BLAS, pinned to one BLAS thread each, as a data pipeline does); the main thread in result()."""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import time
from concurrent.futures import ThreadPoolExecutor

import _field
import numpy as np


def task(seconds: float) -> float:
    until = time.monotonic() + seconds
    rng = np.random.default_rng(2)
    a = rng.standard_normal((150, 150))
    b = rng.standard_normal((150, 150))
    while time.monotonic() < until:
        a = (a @ b) / 13.0
    return float(a.sum())


def main() -> None:
    with ThreadPoolExecutor(4) as ex:
        futures = [ex.submit(task, _field.SECONDS + 0.5) for _ in range(4)]
        _field.ready()
        for f in futures:
            f.result(timeout=_field.MAX_S + 10)


if __name__ == "__main__":
    main()
