"""A worker's verdict at the end of its wave: pure rules over frozen facts, tested without
processes (``tests/test_wave_rules.py``).

The wave's loop only gathers facts (heartbeats, findings, how the wave ended) and calls these:
when a quiet worker is probed (`stall_threshold`), what a worker that finished is (`finished`),
what one that did not finish is (`unfinished`), which live workers deserve a capture before the
kill (`captured`), and how crashes and errors are named (`failure_diagnoses`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from gvlstress.judge import names, patterns, words
from gvlstress.judge.explain import explain
from gvlstress.model import Capture, Diagnosis, ProbeFinding, ProbeKind, Verdict, WorkerOutcome
from gvlstress.model.evidence import (
    BatchesBefore,
    Crashed,
    Fact,
    ManagerStack,
    ManagerWaitsFrame,
    ProcSaid,
    Raised,
    RaisedAfter,
    ResultLockOfDead,
    StderrCause,
    StillAtWork,
    UnreapedZombie,
    WorkerDied,
)
from gvlstress.model.waitfor import WaitFor
from gvlstress.system.proctree import exit_status, signal_name

STALL_FACTOR = 10.0
"""Adaptive stall threshold: this many times the slowest batch seen so far (never below the floor)."""


class EndReason(StrEnum):
    """Why a wave's loop stopped watching."""

    DONE = "done"
    STALL = "stall"
    """A quiet worker was shown deadlocked (the wave ends at once)."""
    TIMEOUT = "timeout"
    STOP = "stop"
    """Ctrl-C or SIGTERM."""
    WEDGE = "wedge"
    """A worker died and the executor never noticed: its futures can never complete."""


WEDGE_S = 1.0
"""A dead worker left unreaped this long, its task still pending and no broken pool reported, is
a wedged executor (a healthy one reaps a dead worker and breaks the pool within milliseconds)."""


@dataclass(frozen=True)
class Wedge:
    """The facts of a wedged executor, gathered before anything is killed."""

    pid: int
    """The dead worker (a zombie: the executor never reaped it)."""
    status: int
    """Its wait status, as /proc keeps it for a zombie."""
    killed_by: str | None
    """Who killed it, when the harness knows: ``--kill-worker``, the OOM killer of the wave's
    memory limit; None when nobody here can tell."""
    manager_stack: tuple[str, ...]
    """Where the executor's manager thread waits (this process's own frames)."""
    batches: int
    sending: bool
    """It had finished its share: it died sending (or pickling) its result."""


def stall_threshold(
    stall: float | None, stall_floor: float, startup_grace: float, batch_s_seen: float, iterating: bool
) -> float:
    """Seconds of heartbeat silence before a worker is probed: a fixed --stall, else 10x the
    slowest batch seen in the run (never below the floor); before its first batch a worker also
    gets the start-up grace (spawn, imports, open)."""
    base = stall if stall is not None else max(stall_floor, STALL_FACTOR * batch_s_seen)
    return base if iterating else max(base, startup_grace)


def taught(batch_s_seen: float, slowest: Iterable[tuple[float, float]]) -> float:
    """The batch time the stall threshold learns: the run's so far, and each worker's slowest
    batch less the seconds chaos or the gang held that worker stopped (slowest: (batch, held)
    pairs). Without the discount a 2 s stop would teach a 20 s threshold, and a hang under chaos
    would wait that long to be probed."""
    return max([batch_s_seen, *(max(0.0, batch - held) for batch, held in slowest)])


def finished(
    stalls: int, batch_s_max: float, stall: float | None, stall_floor: float
) -> tuple[Verdict, str | None]:
    """A worker that finished its share: ``slow`` when a batch went quiet past the stall floor
    (or the fixed --stall) whether or not it was probed, ``ok`` otherwise. The adaptive
    threshold only decides when to probe (it learns a slow loader's batch time, so later waves
    do not probe the same slow batch again); the verdict does not depend on which wave saw it."""
    floor = stall if stall is not None else stall_floor
    if stalls:
        return Verdict.SLOW, f"stalled {stalls}x past the stall threshold, then progressed"
    if batch_s_max > floor:
        return (
            Verdict.SLOW,
            f"a batch took {batch_s_max:.1f}s, past the stall floor of {floor:g}s, then it progressed",
        )
    return Verdict.OK, None


@dataclass(frozen=True)
class SlotFacts:
    """What the wave knows of one worker that did not finish, when the wave ends."""

    pid: int | None
    iterations: int
    quiet_s: float
    """Seconds since its last heartbeat (or since the wave started, before the first)."""
    threshold: float
    confirmed: bool
    """Its probe showed a deadlock and it did not beat during the window."""
    finding: ProbeFinding | None = None
    finished_share: bool = False
    """Its heartbeat said its share was done: what is left of it is sending its result."""
    reported: bool = True
    """It wrote its pid to the heartbeat board (False: `pid` was matched to a process that died
    before it did, see `attribute_deaths`)."""
    named: names.Match | None = None
    """The pattern a rule across processes or looks named at the stall (a lost task, a peer
    that has gone, a named spin), which one process's stacks alone cannot."""
    waitfor: WaitFor | None = None
    """Its wait-for chain at the stall, to its end (`judge.ends`)."""


@dataclass(frozen=True)
class WaveEnd:
    """How the wave ended, for every worker that did not finish."""

    reason: EndReason
    stop_signal: int | None = None
    broken: bool = False
    """The process pool broke (a worker died on its own)."""
    crashed: Mapping[int, int] = field(default_factory=dict)
    """Exit codes of the workers that died on their own (read before anything was killed)."""
    wedge: Wedge | None = None


@dataclass(frozen=True)
class Ending:
    """An unfinished worker's verdict and what the report says of it."""

    verdict: Verdict
    detail: str | None
    exit_code: int | None = None
    signal: int | None = None


def unfinished(f: SlotFacts, end: WaveEnd) -> Ending:
    """The verdict of a worker that did not finish its share of the wave."""
    if f.confirmed:
        spin = f.finding is not None and f.finding.kind is ProbeKind.LIVELOCK
        return Ending(Verdict.LIVELOCK if spin else Verdict.DEADLOCK, f.finding.reason if f.finding else None)
    if end.reason is EndReason.STOP:
        return Ending(Verdict.CANCELLED, f"run stopped by {signal_name(end.stop_signal)}")
    if end.wedge is not None:
        return _wedged(f, end.wedge)
    if end.broken:
        if f.pid in end.crashed or not end.crashed:
            code, sig = exit_status(end.crashed.get(f.pid) if f.pid is not None else None)
            if code is None and sig is None:
                detail = "process pool broke; the worker that died could not be identified"
            elif sig is None:
                detail = f"worker died: exit code {code}"
            else:
                detail = f"worker died: {signal_name(sig)}"
            if not f.reported:
                detail += " (during start-up, before it took its task)"
            return Ending(Verdict.CRASH, detail, code, sig)
        return Ending(Verdict.CANCELLED, "pool broken by a sibling's crash")
    if end.reason is EndReason.STALL:
        return Ending(Verdict.CANCELLED, "stopped: a sibling worker deadlocked")
    # the launch timeout: judge what each worker is doing now
    if f.pid is None:
        return Ending(Verdict.STALLED, "never started: no pool process took its task")
    if f.quiet_s <= f.threshold:
        return Ending(Verdict.SLOW, "still progressing at the launch timeout")
    kind = f.finding.kind if f.finding else ProbeKind.STALLED
    verdict = Verdict.LIVELOCK if kind is ProbeKind.LIVELOCK else Verdict.STALLED
    reason = f.finding.reason if f.finding else "no progress"
    if kind is ProbeKind.WAITING:
        reason = f"{reason}, for {f.quiet_s:.1f}s"
    return Ending(verdict, f"no heartbeat for {f.quiet_s:.1f}s at the launch timeout; {reason}")


def attribute_deaths(slot_pids: list[int | None], crashed: Mapping[int, int]) -> list[int | None]:
    """Each slot's pid, with the workers that died before they reported (a start-up crash) given
    to the slots that never reported, in order: a wave whose pool broke that way blames the dead,
    instead of calling every worker a cancelled sibling of nobody."""
    unclaimed = [pid for pid in crashed if pid not in slot_pids]
    out = []
    for pid in slot_pids:
        out.append(pid if pid is not None else (unclaimed.pop(0) if unclaimed else None))
    return out


def _wedged(f: SlotFacts, w: Wedge) -> Ending:
    code, sig = exit_status(-(w.status & 0x7F) if w.status & 0x7F else w.status >> 8)
    if f.pid == w.pid:
        how = f", {w.killed_by}" if w.killed_by else ""
        died = signal_name(sig) if sig is not None else f"exit code {code}"
        where = "while sending its result" if w.sending else f"after {w.batches} batch(es)"
        return Ending(
            Verdict.CRASH, f"worker died: {died} {where}{how}; the executor never noticed", code, sig
        )
    if f.finished_share:
        return Ending(
            Verdict.DEADLOCK,
            f"finished its share, then blocked sending its result: the result queue's lock is held by "
            f"worker {w.pid}, which died holding it",
        )
    return Ending(Verdict.CANCELLED, "stopped: the executor wedged (its futures could never complete)")


def wedge_diagnosis(verdict: Verdict, f: SlotFacts, w: Wedge) -> Diagnosis:
    """What a wedged executor shows, for the worker that died and for those blocked behind it."""
    code, sig = exit_status(-(w.status & 0x7F) if w.status & 0x7F else w.status >> 8)
    died = signal_name(sig) if sig is not None else f"exit code {code}"
    facts: list[Fact] = [
        WorkerDied(w.pid, died, w.killed_by, w.sending),
        UnreapedZombie(WEDGE_S),
        ManagerWaitsFrame(),
    ]
    if w.manager_stack:
        facts.append(ManagerStack(tuple(w.manager_stack)))
    if verdict is Verdict.DEADLOCK:
        facts.append(ResultLockOfDead(w.pid))
    if verdict is Verdict.CANCELLED:
        facts.append(StillAtWork())
    if f.finding is not None:
        facts.append(ProcSaid(f.finding.reason))
    by = w.killed_by or ""
    who = " by the OOM killer" if "OOM" in by else " by --kill-worker" if "--kill-worker" in by else ""
    summary = (
        f"{verdict.value} ({names.EXECUTOR_WEDGED}): worker {w.pid} died ({died}{who}) "
        + ("sending its result" if w.sending else "mid-wave")
        + "; the executor's manager thread waits for the rest of the frame forever"
    )
    return Diagnosis(
        verdict,
        summary,
        words.evidence(tuple(facts)),
        pattern=names.EXECUTOR_WEDGED,
        hint=names.HINTS[names.EXECUTOR_WEDGED],
        facts=tuple(facts),
    )


def wedged(
    dead: Mapping[int, int], first_seen: Mapping[int, float], pending: set[int], now: float, broken: bool
) -> int | None:
    """The pid of a dead worker whose death the executor has not noticed for `WEDGE_S`: dead
    (a zombie) and unreaped, its task still pending, the pool not reported broken."""
    if broken:
        return None
    for pid in dead:
        if pid in pending and now - first_seen.get(pid, now) >= WEDGE_S:
            return pid
    return None


def captured(f: SlotFacts, end: WaveEnd) -> bool:
    """Will this live worker be judged a hang (so its stacks are taken before the kill)?"""
    if f.finding is None or f.pid is None:
        return False
    return f.confirmed or (end.reason is EndReason.TIMEOUT and f.quiet_s > f.threshold)


def hang_diagnosis(verdict: Verdict, f: SlotFacts, capture: Capture | None) -> Diagnosis | None:
    """The evidence behind a hang verdict (None for any other)."""
    if not verdict.is_hang:
        return None
    progress = f"no heartbeat for {f.quiet_s:.1f}s after {f.iterations} batch(es)"
    return explain(verdict, f.finding, capture, progress, named=f.named, waitfor=f.waitfor)


def failure_diagnoses(
    outcomes: tuple[WorkerOutcome, ...], killed_by: Mapping[int, str] | None = None
) -> tuple[WorkerOutcome, ...]:
    """Name crashes and errors. An error is nondeterministic when siblings running the same code
    on the same kind of data finished cleanly: a wave-level fact, so it is decided here. A crash
    the harness knows the killer of (`killed_by`: its own --kill-worker, the OOM killer of the
    wave's memory limit) is named after that killer."""
    known = killed_by or {}
    passed = sum(1 for o in outcomes if o.verdict in (Verdict.OK, Verdict.SLOW))
    errored = sum(1 for o in outcomes if o.verdict is Verdict.ERROR)
    out = []
    for o in outcomes:
        cause = patterns.failure_cause(o.stderr_tail, o.signal) if o.verdict.is_failure else None
        if o.verdict is Verdict.CRASH and o.pid is not None and o.pid in known:
            cause = patterns.Cause(known[o.pid], "", patterns.killed_hint(known[o.pid]))
        said = (
            f" ({cause.name}: {cause.line[:200]})"
            if cause and cause.line
            else f" ({cause.name})"
            if cause
            else ""
        )
        if o.verdict is Verdict.CRASH and o.diagnosis is None:
            line = (o.detail or "worker died").splitlines()[-1]
            crashed: tuple[Fact, ...] = (
                Crashed(line, o.exit_code, o.signal),
                BatchesBefore(o.iterations),
                *((StderrCause(cause.name, cause.line),) if cause and cause.line else ()),
            )
            o = replace(
                o,
                diagnosis=Diagnosis(
                    Verdict.CRASH,
                    f"crash: {line} after {o.iterations} batch(es){said}",
                    words.evidence(crashed),
                    pattern=names.CRASH,
                    hint=cause.hint if cause else names.HINTS[names.CRASH],
                    facts=crashed,
                ),
            )
        elif o.verdict is Verdict.ERROR and o.diagnosis is None:
            last = ((o.detail or "").strip().splitlines() or ["(no traceback)"])[-1]
            name = names.NONDETERMINISTIC_ERROR if passed else names.ERROR
            raised: tuple[Fact, ...] = (
                Raised(errored, len(outcomes), passed),
                RaisedAfter(o.iterations, last),
            )
            o = replace(
                o,
                diagnosis=Diagnosis(
                    Verdict.ERROR,
                    f"error ({name}): {last}{said}",
                    words.evidence(raised),
                    pattern=name,
                    hint=cause.hint if cause else names.HINTS[name],
                    facts=raised,
                ),
            )
        out.append(o)
    return tuple(out)
