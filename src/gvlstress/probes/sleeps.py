"""How long a sleeping thread's timer has left: read from its own memory (a sleep of more than
a week is no timer a job waits out: ``sleep infinity``, ``time.sleep(1e9)``)."""

from __future__ import annotations

import struct
import time
from pathlib import Path

SLEEPS = frozenset({"nanosleep", "clock_nanosleep"})
_TIMER_ABSTIME = 1


def sleep_left(mem: Path, name: str | None, args: tuple[int, ...]) -> float | None:
    """The most a sleep has left: its requested timespec, read from the sleeper's memory (root,
    or the tracer's rights), less the clock now when it is absolute (Python's time.sleep). A
    relative request's start is unknown, so the whole request is the bound. None if unreadable."""
    clock, flags, req = (0, 0, args[0]) if name == "nanosleep" else (args[0], args[1], args[2])
    try:
        with mem.open("rb", buffering=0) as f:
            f.seek(req)
            raw = f.read(16)
    except (OSError, ValueError, OverflowError):
        return None
    if len(raw) != 16:
        return None
    sec, nsec = struct.unpack("<qq", raw)
    want = float(sec) + float(nsec) / 1e9
    if not flags & _TIMER_ABSTIME:
        return max(want, 0.0)
    try:
        return max(want - time.clock_gettime(clock), 0.0)
    except OSError:
        return None
