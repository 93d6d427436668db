"""Shape: joblib Parallel(n_jobs=2) on its default loky backend, tasks computing in plain Python
(about 2 s each); the launcher inside Parallel.__call__, loky's management thread behind it."""

from __future__ import annotations

import time

import _field
from joblib import Parallel, delayed


def task(seconds: float) -> int:
    until = time.time() + seconds
    n = 0
    while time.time() < until:
        n = (n * 29 + 3) % 1_000_037
    return n


def main() -> None:
    with Parallel(n_jobs=2) as parallel:
        parallel(delayed(task)(0.0) for _ in range(2))  # the loky workers are up
        _field.ready()
        while not _field.over():
            parallel(delayed(task)(min(2.0, _field.left())) for _ in range(4))


if __name__ == "__main__":
    main()
