"""File writes and reads that cannot hurt a run: atomic writes (a reader, or a crash mid-write,
never sees half a report), appends of whole lines, and reads that a FIFO, a device or a huge
file cannot block or stall."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; reports are meant to be shared
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def append_line(path: Path, line: str) -> None:
    """One line added to `path` in a single write (a reader sees whole lines, or a cut last one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o666)
    try:
        os.write(fd, (line.replace("\n", " ") + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)


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
