"""File writes that cannot hurt a run: atomic writes (a reader, or a crash mid-write, never sees
half a report) and appends of whole lines. Reads that cannot block are in `gvlstress.system.safeio`."""

from __future__ import annotations

import os
from pathlib import Path

from gvlstress.system.safeio import write_text_atomic


def write_atomic(path: Path, text: str) -> None:
    """`text` in `path` whole or not at all, never over anything but a regular file."""
    write_text_atomic(path, text)


def append_line(path: Path, line: str) -> None:
    """One line added to `path` in a single write (a reader sees whole lines, or a cut last one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o666)
    try:
        os.write(fd, (line.replace("\n", " ") + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
