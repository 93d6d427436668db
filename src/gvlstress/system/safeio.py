"""Reads that a FIFO, a device or a huge file cannot block or stall, and writes that cannot
destroy one (stdlib only).

Every file gvlstress reads that a user names (run.json and what it refers to, scenario files)
is opened without blocking, its type checked before any read, and read up to a cap. Every file
it writes goes in whole or not at all, and only over a regular file (`replaceable`).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from gvlstress.errors import UsageError


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


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def replaceable(path: Path) -> Path:
    """Where a write to `path` may go: `path` when nothing is there, the file when a regular file
    is (through a symbolic link: the link stays, the file it names is replaced). Anything else
    is refused in one line (a UsageError), ``--force`` or not: renaming a file over /dev/null, a
    FIFO or a directory destroys what a user had there."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise UsageError(
                f"{path} is a symbolic link to nothing: not replaced",
                hint="remove the link, or pass another path",
            ) from None
        return path
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR, errno.ENAMETOOLONG):
            raise
        raise UsageError(f"{path}: {exc.strerror}", hint="pass the path of a file to write") from None
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
        via = " (through a symbolic link)" if os.path.islink(path) else ""
        raise UsageError(
            f"{path} is {kind}{via}, not a regular file: not replaced",
            hint="pass the path of a regular file to write (this one is left as it is)",
        )
    return Path(os.path.realpath(path)) if os.path.islink(path) else path


def write_text_atomic(path: Path, text: str, mode: int = 0o666) -> Path:
    """`text` in `path`, whole or not at all: a temporary file beside it (`mode` less the
    umask), synced, then renamed over it; never over anything but a regular file
    (`replaceable`). The path written (a link's file, where `path` is a link)."""
    dest = replaceable(path)
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", dir=dest.parent)
    umask = os.umask(0)
    os.umask(umask)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            os.fchmod(fh.fileno(), mode & ~umask)  # mkstemp makes 0600; reports are meant to be shared
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, dest)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return dest
