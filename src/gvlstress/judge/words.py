"""Evidence worded: each kind of fact (`model.evidence`) -> the sentence a report shows, in
one place, so a wording change is one edit and rules are tested on their facts."""

from __future__ import annotations

from typing import assert_never

from gvlstress.judge.frames import span
from gvlstress.model.evidence import (
    BatchesBefore,
    Busiest,
    ChainStep,
    Crashed,
    Fact,
    ForkNoExec,
    FutexWaiters,
    GilFree,
    GilHeld,
    GilUnknown,
    IdleByDesign,
    ManagerStack,
    ManagerWaitsFrame,
    Note,
    OffFutex,
    Parked,
    ProcSaid,
    Raised,
    RaisedAfter,
    ResultLockOfDead,
    StderrCause,
    StillAtWork,
    UnreapedZombie,
    WorkerDied,
)
from gvlstress.system.proctree import signal_name

IDLE_SHOWN = 6
"""Idle-by-design threads named in one line; the rest are left out."""


def _plural(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n > 1 else ''}"


def word(fact: Fact) -> str:
    """The sentence of one fact."""
    match fact:
        case Note(text) | ChainStep(text):
            return text
        case Parked(parked, threads, cpu_s, window_s, progress):
            return (
                f"{parked}/{threads} threads asleep with no CPU; "
                f"{cpu_s:.2f} CPU-s used by all threads over {window_s:.2f}s; {progress}"
            )
        case FutexWaiters(addr, tids, roles, blocked_in):
            who = ", ".join(roles) or _plural(len(tids), "thread")
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
        case ForkNoExec(pid, parent, lone, same_program):
            state = " (same program and interpreter state)" if same_program else ""
            return f"process {pid} is a fork of process {parent} that never exec'd{state}" + (
                ", and has one thread" if lone else ""
            )
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


def evidence(facts: tuple[Fact, ...]) -> tuple[str, ...]:
    """The sentences of facts, in their order."""
    return tuple(word(f) for f in facts)
