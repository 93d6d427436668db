"""A target whose import hangs only in multiprocessing's fork server (`--preload` must give up)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

with open("/proc/self/cmdline", "rb") as fh:
    if b"multiprocessing.forkserver import main" in fh.read():
        threading.Event().wait()


def batches(n: int = 2) -> Iterator[int]:
    return iter(range(n))
