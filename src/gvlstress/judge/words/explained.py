"""The explanation's facts worded (`model.evidence.explained`): parked threads, futex groups,
threads off a futex, idle-by-design threads, the GIL, the busiest threads."""

from __future__ import annotations

from typing import assert_never

from gvlstress.judge.frames import span
from gvlstress.judge.words import phrases
from gvlstress.model.evidence.explained import (
    Busiest,
    ExplainedFact,
    FutexWaiters,
    GilFree,
    GilHeld,
    GilUnknown,
    IdleByDesign,
    OffFutex,
    Parked,
)

IDLE_SHOWN = 6
"""Idle-by-design threads named in one line; the rest are left out."""


def word(fact: ExplainedFact) -> str:
    """The sentence of one fact."""
    match fact:
        case Parked(parked, threads, cpu_s, window_s, progress):
            return (
                f"{parked}/{threads} threads asleep with no CPU; "
                f"{cpu_s:.2f} CPU-s used by all threads over {window_s:.2f}s; {progress}"
            )
        case FutexWaiters(addr, tids, roles, blocked_in):
            who = ", ".join(roles) or phrases.plural(len(tids), "thread")
            return f"futex {addr:#x}: {who} (tids {span(tids)}) wait in {blocked_in}"
        case OffFutex(tid, comm, state, at):
            return f"thread {tid} ({comm}) {state}, not on a futex: {at}"
        case IdleByDesign(threads):
            return f"idle by design (not evidence): {'; '.join(threads[:IDLE_SHOWN])}"
        case GilHeld(tid, where):
            return f"GIL held by thread {tid} ({where})"
        case GilFree():
            return "no thread holds the GIL"
        case GilUnknown():
            return "GIL owner unknown (py-spy view missing)"
        case Busiest(threads):
            return "busiest threads: " + ", ".join(f"{tid} {cpu_s:.2f}s" for tid, cpu_s in threads)
        case _:
            assert_never(fact)
