"""Shape: concurrent.futures.ProcessPoolExecutor(2) over fork, a map() of tasks computing in plain
Python (each about 2 s); the launcher iterates the results."""

from __future__ import annotations

import multiprocessing as mp
import time
from concurrent.futures import ProcessPoolExecutor

import _field


def task(seconds: float) -> int:
    until = time.time() + seconds
    n = 0
    while time.time() < until:
        n = (n * 19 + 11) % 100_003
    return n


def main() -> None:
    with ProcessPoolExecutor(2, mp_context=mp.get_context("fork")) as ex:
        assert ex.submit(task, 0.0).result(timeout=60) >= 0
        _field.ready()
        while not _field.over():  # rounds of 4 tasks: map() submits a whole iterable at once
            for _ in ex.map(task, [min(2.0, _field.left())] * 4):
                pass


if __name__ == "__main__":
    main()
