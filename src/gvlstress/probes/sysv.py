"""System V semaphores (``semop``): which semaphore a blocked thread waits on, its value, and the
last process that operated on it (``semctl`` GETPID). A System V semaphore has no owner; the last
operator of one at 0 that someone waits on is the one that took it, and when that process is gone
(killed without SEM_UNDO), nobody will give it back."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
from functools import cache
from pathlib import Path

from gvlstress.model.proc import SysvSem

GETPID, GETVAL = 11, 12


@cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name or "libc.so.6", use_errno=True)
    except OSError:
        return None


def semaphore(mem: Path, args: tuple[int, ...]) -> SysvSem | None:
    """The semaphore a semop/semtimedop(semid, sops, nsops[, timeout]) waits on: the first
    operation's semaphore number read from the waiter's memory, then its value and last operator
    (None when any of it cannot be read: another IPC namespace, no rights, a vanished set)."""
    if len(args) < 3:
        return None
    semid, sops = args[0], args[1]
    try:
        with mem.open("rb", buffering=0) as f:
            f.seek(sops)
            raw = f.read(6)
    except (OSError, ValueError, OverflowError):
        return None
    if len(raw) != 6:
        return None
    semnum, _op, _flags = struct.unpack("<Hhh", raw)
    libc = _libc()
    if libc is None or semid >= 1 << 31:
        return None
    value = libc.semctl(ctypes.c_int(semid), ctypes.c_int(semnum), ctypes.c_int(GETVAL))
    last = libc.semctl(ctypes.c_int(semid), ctypes.c_int(semnum), ctypes.c_int(GETPID))
    if value < 0 or last < 0:
        return None
    return SysvSem(semid, semnum, value, last, last > 0 and os.path.exists(f"/proc/{last}"))
