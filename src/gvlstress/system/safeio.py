"""Reads that a FIFO, a device or a huge file cannot block or stall (stdlib only).

Every file gvlstress reads that a user names (run.json and what it refers to, scenario files)
is opened without blocking, its type checked before any read, and read up to a cap.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


def read_bytes_capped(path: Path, cap: int) -> bytes:
    """A regular file's bytes, at most `cap` of them: a FIFO or a device is refused at once
    (opened without blocking, its type checked before any read), a larger file too."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if info.st_size > cap:
            raise OSError(errno.EFBIG, f"larger than {cap} bytes", str(path))
        chunks = []
        left = cap
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text_capped(path: Path, cap: int) -> str:
    """`read_bytes_capped` decoded as UTF-8 (UnicodeDecodeError on anything else)."""
    return read_bytes_capped(path, cap).decode("utf-8")
