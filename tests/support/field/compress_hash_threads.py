"""Shape: compression and hashing in 3 threads (zlib level 6, lzma preset 1, sha256 over 8 MB
blocks), all releasing the GIL in C; the main thread in join()."""

from __future__ import annotations

import hashlib
import lzma
import os
import threading
import time
import zlib
from collections.abc import Callable

import _field

DATA = os.urandom(1 << 20) * 8  # 8 MB, compressible


def loop(step: Callable[[], object], seconds: float) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        step()


def main() -> None:
    seconds = _field.SECONDS + 0.5
    steps: list[Callable[[], object]] = [
        lambda: zlib.compress(DATA, 6),
        lambda: lzma.compress(DATA[: 1 << 20], preset=1),
        lambda: hashlib.sha256(DATA).digest(),
    ]
    threads = [threading.Thread(target=loop, args=(s, seconds)) for s in steps]
    for t in threads:
        t.start()
    _field.ready()
    for t in threads:
        t.join(_field.MAX_S + 10)


if __name__ == "__main__":
    main()
