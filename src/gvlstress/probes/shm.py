"""Futexes in memory that processes share: which file backs a waited address, which processes
map that file, and what a glibc semaphore there holds. No ptrace: /proc/PID/maps, and
/proc/PID/mem for the semaphore's eight bytes.

A multiprocessing Lock, Semaphore or Queue lock is a POSIX semaphore in /dev/shm: its waiters
sleep on a futex without FUTEX_PRIVATE_FLAG at offset 0 of a mapping of that file. It has no
owner field (a semaphore is not a mutex), so who holds it can only be found by elimination among
the processes that map it; this module says who they are.
"""

from __future__ import annotations

import contextlib
import os
import struct
from collections.abc import Iterable
from pathlib import Path

from gvlstress.model.wiring import SharedLock

MAX_MAPS_BYTES = 4 << 20
"""Stop reading one process's maps past this (a process with millions of mappings)."""


def _maps(pid: int, proc: Path) -> list[tuple[int, int, int, str, int, str]]:
    """(start, end, file offset, device, inode, path) of every file-backed mapping."""
    out = []
    try:
        with open(proc / str(pid) / "maps", "rb") as fh:
            data = fh.read(MAX_MAPS_BYTES)
    except OSError:
        return []
    for raw in data.splitlines():
        parts = raw.split(maxsplit=5)
        if len(parts) < 6 or parts[4] == b"0":
            continue
        try:
            lo, hi = (int(x, 16) for x in parts[0].split(b"-"))
            out.append(
                (lo, hi, int(parts[2], 16), os.fsdecode(parts[3]), int(parts[4]), os.fsdecode(parts[5]))
            )
        except ValueError:
            continue
    return out


def backing(pid: int, addr: int, proc: Path = Path("/proc")) -> tuple[str, str, int] | None:
    """The file mapped at `addr` in `pid`: (device:inode, path, offset in the file); None for
    anonymous memory (a private lock, a thread's stack)."""
    for lo, hi, off, dev, ino, path in _maps(pid, proc):
        if lo <= addr < hi:
            return f"{dev}:{ino}", path, off + addr - lo
    return None


def _ancestors(pids: Iterable[int], proc: Path) -> set[int]:
    """Every ancestor of `pids` (parent, its parent, ... up to pid 1)."""
    out: set[int] = set()
    for pid in pids:
        seen = 0
        while pid > 1 and seen < 64:
            try:
                stat = (proc / str(pid) / "stat").read_text()
                pid = int(stat[stat.rfind(")") + 2 :].split()[1])
            except (OSError, ValueError, IndexError):
                break
            out.add(pid)
            seen += 1
    return out


def mappers(files: set[str], proc: Path = Path("/proc")) -> tuple[dict[str, tuple[int, ...]], bool]:
    """Every process on the host that maps each of `files` (device:inode), and whether every
    process that could map one could be read (else a mapper may be missing: never claim "nobody
    else"). A process whose maps cannot be read (the container's init, another user's) is no
    doubt when it is an ancestor of the mappers found: fork copies a mapping to a child, never
    back to a parent, so it could only be the semaphore's creator, which mapped it first."""
    found: dict[str, list[int]] = {f: [] for f in files}
    unread: list[int] = []
    if not files:
        return {}, True
    try:
        entries = [int(e) for e in os.listdir(proc) if e.isdigit()]
    except OSError:
        return {f: () for f in files}, False
    for pid in entries:
        try:
            with open(proc / str(pid) / "maps", "rb") as fh:
                data = fh.read(MAX_MAPS_BYTES)
        except (FileNotFoundError, ProcessLookupError):
            continue  # it exited meanwhile
        except OSError:
            unread.append(pid)  # not ours to read: a mapper may hide there
            continue
        seen = set()
        for raw in data.splitlines():
            parts = raw.split(maxsplit=5)
            if len(parts) >= 5 and parts[4] != b"0":
                key = f"{os.fsdecode(parts[3])}:{int(parts[4])}"
                if key in found and key not in seen:
                    seen.add(key)
                    found[key].append(pid)
    known = {p for ps in found.values() for p in ps}
    complete = not unread or set(unread) <= _ancestors(known, proc)
    return {f: tuple(sorted(p)) for f, p in found.items()}, complete


def semaphore(pid: int, addr: int, proc: Path = Path("/proc")) -> tuple[int, int] | None:
    """A glibc semaphore's (value, waiters) at `addr` (64-bit layout: the value in the low 32 bits
    of one word, the waiter count in the high 32); None where the memory cannot be read."""
    with contextlib.suppress(OSError, ValueError, OverflowError):
        fd = os.open(proc / str(pid) / "mem", os.O_RDONLY)
        try:
            raw = os.pread(fd, 8, addr)
        finally:
            os.close(fd)
        if len(raw) == 8:
            (word,) = struct.unpack("<Q", raw)
            return word & 0x7FFFFFFF, word >> 32
    return None


def shared_locks(
    waits: Iterable[tuple[int, int]], proc: Path = Path("/proc")
) -> dict[tuple[int, int], SharedLock]:
    """The shared lock each (pid, futex address) waits on, with every process that maps it."""
    located: dict[tuple[int, int], tuple[str, str, int]] = {}
    for pid, addr in waits:
        where = backing(pid, addr, proc)
        if where is not None:
            located[(pid, addr)] = where
    holders, complete = mappers({f for f, _, _ in located.values()}, proc)
    out = {}
    for (pid, addr), (f, path, off) in located.items():
        sem = semaphore(pid, addr, proc)
        out[(pid, addr)] = SharedLock(
            key=f"{f}+{off}",
            path=path,
            mappers=holders.get(f, ()),
            count=sem[0] if sem else None,
            waiters=sem[1] if sem else None,
            complete=complete,
        )
    return out
