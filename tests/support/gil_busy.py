"""A healthy target whose batch is four pure-Python threads taking turns on the GIL for ~1.5 s:
at a 100 us switch interval each of them wakes on the tick thousands of times a second, the
shape of a GIL deadlock's waiters to /proc. Its heartbeat goes quiet past the stall floor; the
verdict must be slow, never deadlock."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

THREADS = int(os.environ.get("GIL_BUSY_THREADS", "4"))


def _spin(until: float) -> None:
    n = 0
    while time.monotonic() < until:
        n += 1


def batches() -> Iterator[bytes]:
    for _ in range(2):
        until = time.monotonic() + 1.5
        threads = [threading.Thread(target=_spin, args=(until,)) for _ in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        yield b"x"
