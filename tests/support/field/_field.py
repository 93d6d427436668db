"""What every field program shares: how long it holds its shape, and the `ready` handshake.

A field program is a healthy job in one shape (a pool computing, a server idle by design, a
pipeline...). It builds the shape, prints `ready` once the shape is in place (after a bounded
/proc poll where a result alone does not show it), keeps it for ``FIELD_SECONDS`` (45 by default,
never more than 60), then ends by itself with 0. Standalone: a program may run in a venv of
pinned packages that has no gvlstress, so this module uses the standard library only.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable

MAX_S = 60.0
SECONDS = min(float(os.environ.get("FIELD_SECONDS", "45")), MAX_S)
"""How long the shape is held after `ready` (the test sets it; a program never outlives MAX_S)."""
_ARCH = 1 if os.uname().machine == "aarch64" else 0
NR = {
    name: numbers[_ARCH]
    for name, numbers in {
        "read": ("0", "63"),
        "poll": ("7", "73"),
        "select": ("23", "72"),
        "nanosleep": ("35", "101"),
        "accept": ("43", "202"),
        "recvfrom": ("45", "207"),
        "wait4": ("61", "260"),
        "futex": ("202", "98"),
        "epoll_wait": ("232", "22"),
        "clock_nanosleep": ("230", "115"),
        "waitid": ("247", "95"),
        "pselect6": ("270", "72"),
        "ppoll": ("271", "73"),
        "epoll_pwait": ("281", "22"),
        "accept4": ("288", "242"),
    }.items()
}
"""Syscall numbers by name on this machine (what /proc/PID/task/TID/syscall shows)."""

_end: float | None = None


def ready() -> None:
    """The shape is in place: say so, and start the clock of `left`."""
    global _end
    _end = time.monotonic() + SECONDS
    print("ready", flush=True)


def end() -> float:
    """When the shape ends (monotonic); before `ready`, SECONDS from now."""
    return _end if _end is not None else time.monotonic() + SECONDS


def left() -> float:
    """Seconds the shape still has to be held (0 once it is over)."""
    return max(0.0, end() - time.monotonic())


def over() -> bool:
    return left() <= 0


def hold() -> None:
    """Sleep out the rest of the shape (the main thread of a job waiting on its own timer)."""
    time.sleep(left())


def syscall(pid: int, tid: int | None = None) -> str:
    """The syscall number a thread is in ('running' or '' when it is not in one, or gone)."""
    try:
        with open(f"/proc/{pid}/task/{tid or pid}/syscall") as fh:
            return fh.read().split()[0]
    except (OSError, IndexError):
        return ""


def state(pid: int) -> str:
    """The process's state letter (R, S, D, T, Z) or '' when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b") ", 1)[1][:1].decode()
    except (OSError, IndexError):
        return ""


def settle(check: Callable[[], bool], what: str, runs: int = 10, timeout: float = 60.0) -> None:
    """Wait until `check` holds for `runs` polls in a row (a bounded /proc poll, never a sleep
    as synchronisation); exit 3 naming `what` when it never does."""
    run, deadline = 0, time.monotonic() + timeout
    while run < runs:
        if time.monotonic() > deadline:
            print(f"never settled: {what}", file=sys.stderr, flush=True)
            os._exit(3)
        run = run + 1 if check() else 0
        time.sleep(0.05)  # the polling interval of a bounded /proc poll


def in_calls(pid: int, names: Iterable[str], tid: int | None = None) -> bool:
    """Is this thread in one of these syscalls (by name)?"""
    return syscall(pid, tid) in {NR[n] for n in names}


def children_of(pid: int) -> list[int]:
    """The direct children of `pid` (read from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                ppid = int(fh.read().rsplit(b") ", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            out.append(int(entry))
    return out
