"""File locks (``/proc/locks``): who holds the lock a flock/fcntl wait is for, including a
flock whose taker exited while a process it started kept the descriptor (the lock lives on)."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path


def _read(path: Path) -> str | None:
    try:
        return path.read_text(errors="backslashreplace")
    except OSError:
        return None


def _readlink(path: Path) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


@dataclass(frozen=True)
class FileLock:
    """One line of /proc/locks: a lock held (or, `blocked`, waited for) on one file."""

    kind: str
    """FLOCK, POSIX, OFDLCK, LEASE..."""
    pid: int
    """The holder (-1 for an OFD lock: owned by an open file, not a process)."""
    major: int
    minor: int
    inode: int
    blocked: bool


def parse_locks(text: str) -> tuple[FileLock, ...]:
    """/proc/locks: ``1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF``; a waiter's line has
    ``->`` after the id. Lines that do not parse are skipped (a newer kernel's columns)."""
    out = []
    for line in text.splitlines():
        fields = line.split()
        blocked = len(fields) > 1 and fields[1] == "->"
        if blocked:
            del fields[1]
        if len(fields) < 6:
            continue
        dev = fields[5].split(":")
        try:
            pid = int(fields[4])
            major, minor, inode = int(dev[0], 16), int(dev[1], 16), int(dev[2])
        except (ValueError, IndexError):
            continue
        if min(major, minor, inode) < 0:
            continue
        out.append(FileLock(fields[1], pid, major, minor, inode, blocked))
    return tuple(out)


def flock_takers(locks: Path = Path("/proc/locks")) -> frozenset[int] | None:
    """Every pid holding or waiting for a flock or OFD lock on this host (OFD: -1); None when
    /proc/locks cannot be read."""
    text = _read(locks)
    if text is None:
        return None
    return frozenset(lk.pid for lk in parse_locks(text) if lk.kind in ("FLOCK", "OFDLCK"))


def lock_holder(fd_path: Path, waiter: int, locks: Path = Path("/proc/locks")) -> int | None:
    """Who holds the lock on the file `fd_path` opens (a /proc/PID/fd link) that `waiter` waits
    for: the first holder other than the waiter; None when none is listed."""
    try:
        st = fd_path.stat()
    except OSError:
        return None
    held = [
        lk
        for lk in parse_locks(_read(locks) or "")
        if not lk.blocked
        and lk.inode == st.st_ino
        and (lk.major, lk.minor) == (os.major(st.st_dev), os.minor(st.st_dev))
    ]
    pid = next((lk.pid for lk in held if lk.pid != waiter), held[0].pid if held else None)
    if pid is not None and pid > 0 and not (locks.parent / str(pid)).exists():
        # a flock belongs to the open file, not the process that took it: when that process has
        # exited, whoever inherited the descriptor (a helper started with it) holds it now
        return _opener(fd_path, st, waiter, locks.parent) or pid
    return pid


MAX_SCANNED = 4096
"""Processes whose descriptors are read to find an inherited lock's holder (bounded on a busy host)."""


def _opener(fd_path: Path, st: os.stat_result, waiter: int, proc: Path) -> int | None:
    """A live process other than `waiter` with the same file open (the same path, then the same
    device and inode): the holder of a flock whose taker has exited."""
    want = _readlink(fd_path)
    if want is None:
        return None
    pids = sorted(int(d) for d in os.listdir(proc) if d.isdigit() and int(d) != waiter)[:MAX_SCANNED]
    for pid in pids:
        fds = proc / str(pid) / "fd"
        try:
            names = os.listdir(fds)
        except OSError:
            continue
        for name in names:
            if _readlink(fds / name) != want:
                continue
            with contextlib.suppress(OSError):
                other = (fds / name).stat()
                if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
                    return pid
    return None
