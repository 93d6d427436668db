"""A wave's failures worded (`model.evidence.waves`): a crash, an error, an executor wedged by a
worker that died."""

from __future__ import annotations

from typing import assert_never

from gvlstress.model.evidence.waves import (
    BatchesBefore,
    Crashed,
    ManagerStack,
    ManagerWaitsFrame,
    ProcSaid,
    Raised,
    RaisedAfter,
    ResultLockOfDead,
    StderrCause,
    StillAtWork,
    UnreapedZombie,
    WaveFact,
    WorkerDied,
)
from gvlstress.system.proctree import signal_name


def word(fact: WaveFact) -> str:
    """The sentence of one fact."""
    match fact:
        case WorkerDied(pid, died, killed_by, sending):
            return f"worker {pid} died ({died}{', ' + killed_by if killed_by else ''}) " + (
                "after it had finished its share, i.e. while pickling or sending its result"
                if sending
                else ""
            )
        case UnreapedZombie(wedge_s):
            return (
                f"it is a zombie: the executor never reaped it, never raised BrokenProcessPool, and for {wedge_s:g}s "
                "and more its task's future stayed pending"
            )
        case ManagerWaitsFrame():
            return (
                "the executor's manager thread (in the parent) waits for the rest of a result frame that will "
                "never come: the pipe's write ends stay open in the parent and the other workers, so no EOF"
            )
        case ManagerStack(frames):
            return "the manager thread is in " + " > ".join(frames)
        case ResultLockOfDead(pid):
            return (
                f"this worker finished its share and waits to send its result on the result queue's lock, held by "
                f"the dead worker {pid}: a lock in shared memory whose holder is gone"
            )
        case StillAtWork():
            return (
                "this worker was still at work when the wedge was found: whatever it returned, its future "
                "stays pending behind the same wedge (the executor collects no result any more)"
            )
        case ProcSaid(reason):
            return f"/proc: {reason}"
        case Crashed(line, exit_code, signal):
            return f"{line}; exit code {exit_code}, signal {signal_name(signal)}"
        case BatchesBefore(batches):
            return f"{batches} batch(es) completed before it died"
        case StderrCause(name, line):
            return f"{name}, from its stderr: {line}"
        case Raised(raised, workers, clean):
            return f"{raised} of {workers} workers raised; {clean} finished cleanly with the same code"
        case RaisedAfter(batches, last):
            return f"raised after {batches} batch(es): {last}"
        case _:
            assert_never(fact)
