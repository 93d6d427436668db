"""Shape: concurrent.futures.ProcessPoolExecutor(2) over forkserver whose tasks sleep (waiting on a
remote service) in waves; the launcher in as_completed()."""

from __future__ import annotations

import multiprocessing as mp
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import _field


def task(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def main() -> None:
    with ProcessPoolExecutor(2, mp_context=mp.get_context("forkserver")) as ex:
        assert ex.submit(task, 0.0).result(timeout=60) == 0.0
        _field.ready()
        while not _field.over():
            wave = [ex.submit(task, min(5.0, _field.left())) for _ in range(4)]
            for f in as_completed(wave, timeout=_field.MAX_S):
                f.result()


if __name__ == "__main__":
    main()
