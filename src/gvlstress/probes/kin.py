"""A process's kin as /proc shows it, read often and cheaply: its children now (a pool replacing
workers shows as children that come and go between two reads)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def children(pid: int, proc: Path = Path("/proc")) -> tuple[int, ...]:
    """The children of `pid` now (every thread's /proc/PID/task/TID/children: a child belongs to
    the thread that forked it); () when the process is gone or the kernel lacks the file."""
    out: set[int] = set()
    try:
        tids = os.listdir(proc / str(pid) / "task")
    except OSError:
        return ()
    for tid in tids:
        text = ""
        with contextlib.suppress(OSError):
            text = (proc / str(pid) / "task" / tid / "children").read_text()
        if text:
            out.update(int(x) for x in text.split() if x.isdigit())
    return tuple(sorted(out))
