"""Shape: concurrent.futures.ThreadPoolExecutor(4) computing in plain Python: four threads take
turns on the GIL, the main thread waits on their futures."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import _field


def task(seconds: float) -> int:
    until = time.monotonic() + seconds
    n = 0
    while time.monotonic() < until:
        n = (n * 23 + 1) % 1_000_033
    return n


def main() -> None:
    with ThreadPoolExecutor(4) as ex:
        futures = [ex.submit(task, _field.SECONDS + 0.5) for _ in range(4)]
        _field.ready()
        for f in futures:
            f.result(timeout=_field.MAX_S + 10)


if __name__ == "__main__":
    main()
