"""A wait for a child that job control stopped and nothing will continue (pure).

A process of a background group that reads its terminal, writes it (with TOSTOP) or sets its
modes (tcsetattr) is stopped by the kernel (SIGTTIN, SIGTTOU) until someone continues it: a
shell does, when the group is one of its jobs and its ``waitpid(WUNTRACED)`` told it of the
stop. A tool that put itself in a group of its own (``setpgrp``) under a parent that waits for
its exit without WUNTRACED is no shell's job: the parent is never told of the stop, no shell
outside knows the group, and the wait ends only if someone sends SIGCONT. The facts that tell:
the child's ``/proc`` (state T, stopped in a read, write or ioctl of its controlling terminal,
from a background group it leads: `model.ProcSample.stopped_by`), the parent's wait (wait4 or
waitid, its options without WUNTRACED/WSTOPPED), and no process of the look left that runs or
has a timer that could send the SIGCONT. A SIGSTOP someone sent is never this (whoever sent it
may continue it), nor a child a parent waits for with WUNTRACED (it is told, and acts).
"""

from __future__ import annotations

from dataclasses import replace

from gvlstress.judge import names, words
from gvlstress.judge.case import Case, Found
from gvlstress.judge.threads import waits_forever, wake_signals
from gvlstress.model import ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.evidence import Fact, NotToldOfStops, ParentAwaitsExit, StoppedByTerminal
from gvlstress.model.syscalls import syscall_name

WUNTRACED = 2
"""wait4()'s WUNTRACED, waitid()'s WSTOPPED: report a child's stop."""
OPTIONS_ARG = {"wait4": 2, "waitid": 3}
"""Which argument of each wait call holds its options."""
P_PID = 1
"""waitid()'s idtype for one pid."""
QUIET = (ProbeKind.IDLE, ProbeKind.WAITING, ProbeKind.STALLED)


def stopped_child(case: Case) -> Found | None:
    """A process that waits, never told of stops, for a child job control stopped, with nothing
    in the look left to continue it: a hang that ends in nobody; None when a fact is missing."""
    f, others = case.finding, case.others
    t = f.progress_thread()
    w = t.wait if t is not None else None
    if f.kind not in QUIET or t is None or w is None or w.kind is not WaitKind.CHILD or not t.parked:
        return None
    call = syscall_name(t.syscall) or ""
    at = OPTIONS_ARG.get(call)
    if at is None or len(t.args) <= at or t.args[at] & WUNTRACED or wake_signals(f):
        return None
    kids = [c for c, p in case.relatives.parents.items() if p == f.pid]
    one = _waited_pid(t, call, w.child)
    waited = [c for c in kids if c == one] if one else kids
    stops = [s for c in waited if (s := _stopped_by_terminal(others.findings.get(c))) is not None]
    if not waited or len(stops) < len(waited):
        return None
    rest = [x for x in f.threads if x is not t]
    if any(not (x.parked and waits_forever(x)) for x in rest):
        return None
    busy = [p for p, g in others.findings.items() if p != f.pid and p not in waited and _could_act(g)]
    if busy:
        return None
    facts: tuple[Fact, ...] = (
        *stops,
        ParentAwaitsExit(f.pid, w.detail, waited[0]),
        NotToldOfStops(
            f.pid, call, tuple(sorted(p for p in others.findings if p != f.pid and p not in waited))
        ),
    )
    match = names.Match(names.STOPPED_CHILD, names.HINTS[names.STOPPED_CHILD], facts)
    first = stops[0]
    reason = (
        f"waits for child {first.child}, which the job control of {first.terminal} stopped, and nothing "
        "in the tree will continue it"
    )
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason, chain=(*f.chain, *words.evidence(facts))), match


def _waited_pid(t: ThreadDelta, call: str, child: int | None) -> int | None:
    """The one child the wait names (wait4's pid; waitid's id under P_PID), else None: any child,
    a group, a pidfd (then every child must be stopped for good)."""
    if call == "waitid":
        return t.args[1] if t.args[0] == P_PID and len(t.args) > 1 else None
    return child if child is not None and child > 0 else None


def _stopped_by_terminal(g: ProbeFinding | None) -> StoppedByTerminal | None:
    """The child's stop, if its terminal's job control made it in a group the child leads (one
    no shell outside made: the child's parent, in the look, or the child itself made it)."""
    if g is None or g.kind is not ProbeKind.STOPPED or not g.samples:
        return None
    last = g.samples[-1]
    if last.stopped_by is None or last.pgrp != g.pid:
        return None
    t = next((x for x in g.threads if x.state == "T" and x.syscall is not None), None)
    return StoppedByTerminal(g.pid, last.stopped_by, (syscall_name(t.syscall) if t else None) or "a call")


def _could_act(g: ProbeFinding) -> bool:
    """A process that may still send the SIGCONT: running, or with a thread that wakes by itself
    (a timer, a timed wait); one parked for good, stopped, gone or hung cannot."""
    if g.kind in (ProbeKind.DEADLOCK, ProbeKind.STOPPED, ProbeKind.GONE):
        return False
    return any(not _for_good(x) for x in g.threads)


def _for_good(t: ThreadDelta) -> bool:
    return t.parked and (waits_forever(t) or (t.wait is not None and t.wait.kind is WaitKind.CHILD))
