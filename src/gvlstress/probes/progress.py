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

from gvlstress.model.watch import ProcCounters, TreeReading


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


def stopped(pids: Iterable[int], proc: str = "/proc") -> tuple[int, ...]:
    """Those of `pids` stopped now (state T: job control's SIGTTIN/SIGTTOU or a SIGSTOP; not a
    tracer's stop, t)."""
    out = []
    for pid in pids:
        stat = _read(f"{proc}/{pid}/stat")
        if stat is not None and stat[stat.rfind(")") + 2 : stat.rfind(")") + 3] == "T":
            out.append(pid)
    return tuple(out)
