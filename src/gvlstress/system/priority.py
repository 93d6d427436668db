"""The harness's own share of the CPU when it looks at a process that burns every core.

A spinning process with 16 threads on 2 cores leaves a look at it ~1/9 of a core: `inspect`
took 29 s there, 23 s of it importing itself. Nice -10 (allowed to root and CAP_SYS_NICE) gives
the look, and the stack tools it starts, the weight of ~9 ordinary threads: 4 s.
"""

from __future__ import annotations

import os

LOOK_NICE = -10


def boost(nice: int = LOOK_NICE) -> int | None:
    """Raise the calling thread's priority to `nice` where allowed; threads and processes it
    starts afterwards inherit it. The nice value now in force, or None if it could not be read."""
    try:
        current = os.getpriority(os.PRIO_PROCESS, 0)
    except OSError:
        return None
    if current <= nice:
        return current
    try:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    except OSError:  # neither root nor CAP_SYS_NICE: look at the ordinary priority
        return current
    return nice
