"""Who holds the pthread mutex a thread waits on: glibc writes its owner's thread id into it.

A glibc ``pthread_mutex_t`` (and so a C++ ``std::mutex``, and the mutexes of LMDB, SQLite,
DuckDB, OpenBLAS, HDF5...) keeps, beside its futex word, the thread id of whoever locked it:
``{int lock; unsigned count; int owner; unsigned nusers; int kind; ...}`` on every 64-bit glibc.
A thread blocked locking one sleeps in ``futex(&lock, FUTEX_WAIT, 2)`` (``FUTEX_LOCK_PI`` for a
priority-inheritance mutex; a robust mutex waits on the owner's id itself). So the waited
address, from ``/proc/TID/syscall``, and 20 bytes of ``/proc/PID/mem`` there say which thread
holds the lock: itself (a self-deadlock), another thread of the process, a thread of another
process (a mutex in shared memory), or a thread that no longer exists (it exited holding it).

Nothing is claimed unless the 20 bytes read as a locked glibc mutex: the wait is a plain or
PI futex wait (a condition variable's or a semaphore's is a ``FUTEX_WAIT_BITSET``), the kind is
one glibc defines, the word says locked (or holds the owner's id), the owner field agrees, and
the users count is sane. A lock that keeps no owner (Rust's, parking_lot's, a Python lock) never
reads as one. Thread ids are compared only within one pid namespace.
"""

from __future__ import annotations

import functools
import os
import struct
from pathlib import Path

FUTEX_WAIT, FUTEX_LOCK_PI, FUTEX_LOCK_PI2 = 0, 6, 13
FUTEX_CMD_MASK = 0x7F
"""The futex operation without FUTEX_PRIVATE_FLAG (128) and FUTEX_CLOCK_REALTIME (256)."""
_KIND_BASES = frozenset({0, 16, 32, 48, 64})
"""Normal, robust, PI, robust PI, priority-protect: each plus a type 0-3 (normal, recursive,
error-checking, adaptive). Flags above: process-shared (128), elision (256, 512)."""
_TID_MASK = 0x3FFFFFFF
"""A robust or PI mutex's lock word: the owner's id under FUTEX_WAITERS and FUTEX_OWNER_DIED."""
MAX_TID = 1 << 22
"""Linux's largest pid_max: a larger 'owner' is no thread id."""


def parse_mutex(raw: bytes) -> int | None:
    """The owner's thread id of the glibc mutex in `raw` (its first 20 bytes), or None when they
    do not read as a locked mutex with an owner."""
    if len(raw) < 20:
        return None
    lock, count, owner, nusers, kind = (int(x) for x in struct.unpack_from("<iIiIi", raw))
    base = kind & 0x7F
    if kind < 0 or kind & ~0x3FF or base & ~0x73 or (base & 0x70) not in _KIND_BASES:
        return None
    if not 0 < owner < MAX_TID or not 0 < nusers < 1 << 16 or count >= 1 << 16:
        return None
    if base & 0x30:  # robust or PI: the word carries the owner's id
        return owner if lock & _TID_MASK == owner else None
    if lock not in (1, 2):
        return None
    return owner


def waits_on_mutex(args: tuple[int, ...]) -> bool:
    """A futex call that is a mutex's lock wait (not a condition variable's or a semaphore's)."""
    return len(args) >= 3 and (args[1] & FUTEX_CMD_MASK) in (FUTEX_WAIT, FUTEX_LOCK_PI, FUTEX_LOCK_PI2)


def mutex_owner(pid: int, args: tuple[int, ...], proc: Path = Path("/proc")) -> int | None:
    """The thread holding the mutex a futex call with `args` waits on, read from the waiter's
    memory; None when it is no such wait, no glibc mutex, or unreadable."""
    if not waits_on_mutex(args) or not same_namespace(pid, proc):
        return None
    try:
        fd = os.open(proc / str(pid) / "mem", os.O_RDONLY)
    except OSError:
        return None
    try:
        raw = os.pread(fd, 20, args[0])
    except (OSError, ValueError, OverflowError):
        return None
    finally:
        os.close(fd)
    owner = parse_mutex(raw)
    if owner is None:
        return None
    kind = struct.unpack_from("<i", raw, 16)[0] & 0x73
    waiter = args[2] if (args[1] & FUTEX_CMD_MASK) == FUTEX_WAIT else None
    if kind & 0x30 == 0 and waiter not in (None, 2):
        return None  # a plain mutex's waiter sleeps on the value 2 (locked, with waiters)
    return owner


def held_by(task_dir: Path, blocked: str, args: tuple[int, ...]) -> tuple[int | None, int | None]:
    """(owner thread, its process) of the mutex the thread at `task_dir` (/proc/PID/task/TID)
    waits on, where its syscall line read `blocked` with `args`; (None, None) when it is no
    mutex wait, or when the thread left the wait while the mutex was read (it may hold it now,
    and its own id in the owner field would read as a self-deadlock)."""
    proc = task_dir.parent.parent
    owner = mutex_owner(int(proc.name), args, proc.parent)
    try:
        again = (task_dir / "syscall").read_text()
    except OSError:
        return None, None
    if owner is None or again != blocked:
        return None, None
    return owner, owner_pid(owner, proc.parent)


def owner_pid(tid: int, proc: Path = Path("/proc")) -> int:
    """The process of thread `tid` (its Tgid), or 0 when no such thread exists any more."""
    try:
        status = (proc / str(tid) / "status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("Tgid:"):
            try:
                return int(line.split()[1])
            except (IndexError, ValueError):
                return 0
    return 0


def _levels(status: str) -> int:
    """How many pid namespaces deep a process is (the ``NSpid`` line's length; 1 without it)."""
    for line in status.splitlines():
        if line.startswith("NSpid:"):
            return max(1, len(line.split()) - 1)
    return 1


def same_namespace(pid: int, proc: Path = Path("/proc")) -> bool:
    """`pid` sees thread ids as this process does (the ids glibc wrote are ours to look up)."""
    try:
        theirs = _levels((proc / str(pid) / "status").read_text())
    except OSError:
        return False
    return theirs == _own_levels(proc)


@functools.cache
def _own_levels(proc: Path) -> int:
    try:
        return _levels((proc / "self" / "status").read_text())
    except OSError:
        return 0
