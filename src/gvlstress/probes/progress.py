"""A long job's counters, read cheaply enough to leave on: /proc only, never ptrace.

Per process of the watched tree: CPU ticks, minor page faults and the thread count from
``/proc/PID/stat``, bytes read and written from ``/proc/PID/io`` (all threads, living and dead).
The tree itself (the job and its descendants) is found by one scan of every process's parent
(`tree`), done less often than the counters are read: a process that appears or ends is progress
too, and a few seconds late is soon enough for that.
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection, Iterable

from gvlstress.model.syscalls import syscall_name
from gvlstress.model.watch import ProcCounters, Stop, TreeReading


def _read(path: str) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 4096).decode(errors="replace")
    except OSError:
        return None
    finally:
        os.close(fd)


def counters(pid: int, proc: str = "/proc") -> ProcCounters | None:
    """One process's counters now; None when it is gone."""
    stat = _read(f"{proc}/{pid}/stat")
    if stat is None:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    try:
        if fields[0] == "Z":
            return None  # it exited: its parent has only not reaped it
        minflt, utime, stime, threads = int(fields[7]), int(fields[11]), int(fields[12]), int(fields[17])
    except (IndexError, ValueError):
        return None
    rchar = wchar = None
    io = _read(f"{proc}/{pid}/io")
    if io is not None:
        for line in io.splitlines():
            key, _, value = line.partition(":")
            if key == "rchar":
                rchar = int(value)
            elif key == "wchar":
                wchar = int(value)
    return ProcCounters(pid, utime + stime, rchar, wchar, minflt, threads)


def tree(root: int, proc: str = "/proc", skip: Collection[int] = ()) -> tuple[int, ...]:
    """`root` and every live descendant, from one scan of every process's parent; not `skip`
    nor what descends from it (a watcher inside the tree it watches: its reads are not the job's)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir(proc)
    except OSError:
        return (root,)
    for e in entries:
        if not e.isdigit():
            continue
        stat = _read(f"{proc}/{e}/stat")
        if stat is None:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1 and fields[0] != "Z" and fields[1].isdigit():
            children.setdefault(int(fields[1]), []).append(int(e))
    out, todo = [root], [root]
    while todo:
        for c in children.get(todo.pop(), ()):
            if c not in out and c not in skip:
                out.append(c)
                todo.append(c)
    return tuple(out)


def reading(pids: Iterable[int], proc: str = "/proc") -> TreeReading:
    """The counters of `pids` now (those gone left out)."""
    now = time.monotonic()
    return TreeReading(now, tuple(c for p in pids if (c := counters(p, proc)) is not None))


def stopped(pids: Iterable[int], proc: str = "/proc") -> tuple[Stop, ...]:
    """Those of `pids` stopped now (state T: job control's SIGTTIN/SIGTTOU or a SIGSTOP; not a
    tracer's stop, t), each with the terminal whose job control stopped it, if one did."""
    out = []
    for pid in pids:
        stat = _read(f"{proc}/{pid}/stat")
        if stat is None:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if fields and fields[0] == "T":
            by = terminal_stop(pid, fields, proc)
            out.append(Stop(pid, by[0] if by else None))
    return tuple(out)


TERMINAL_CALLS = frozenset({"read", "write", "ioctl", "readv", "writev", "pread64", "pwrite64"})
"""The calls a background group is stopped in when they touch its controlling terminal."""


def terminal_stop(pid: int, fields: list[str], proc: str = "/proc") -> tuple[int, int] | None:
    """The terminal whose job control stopped `pid` (its ``stat`` fields after the name), as
    (its device number, the fd it was called on), else None. Job control stops a process of a background group (its group is not the terminal's
    foreground one) in a read, write or ioctl of its controlling terminal; a SIGSTOP leaves it
    wherever it was (a sleep, a futex, user code), so the call and its fd tell the two apart."""
    try:
        pgrp, tty, tpgid = int(fields[2]), int(fields[4]), int(fields[5])
    except (IndexError, ValueError):
        return None
    if tty == 0 or pgrp == tpgid:
        return None
    try:
        tasks = os.listdir(f"{proc}/{pid}/task")
    except OSError:
        return None
    for tid in tasks:
        call = (_read(f"{proc}/{pid}/task/{tid}/syscall") or "").split()  # nr fd ...
        if len(call) < 2 or not call[0].isdigit() or syscall_name(int(call[0])) not in TERMINAL_CALLS:
            continue
        try:
            fd = int(call[1], 16)
            if os.stat(f"{proc}/{pid}/fd/{fd}").st_rdev == tty:
                return tty, fd
        except (OSError, ValueError):
            continue
    return None
