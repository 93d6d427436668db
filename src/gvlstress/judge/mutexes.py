"""Waits on pthread mutexes followed to their owners (pure).

glibc records in every mutex the thread that holds it (`probes.mutexes`), so a lock wait needs
no guess from stack shapes: a thread waiting for a mutex whose owner is itself waits forever (a
plain mutex locked twice by one thread: a callback, a UDF or a second transaction re-entering
code that holds it); threads each waiting for a mutex another of them holds form a cycle (a
lock-order inversion, with its mutexes named); a mutex whose owner thread no longer exists was
left locked by a thread that exited, and nothing can unlock it; a private mutex whose owner is
a thread of another process is a copy fork() made while that thread held it.
"""

from __future__ import annotations

from dataclasses import replace

from gvlstress.judge import names
from gvlstress.judge.case import Case, Found
from gvlstress.judge.threads import private_futex
from gvlstress.model import ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.evidence import (
    Fact,
    ForeignOwnerMutex,
    MutexHeldBy,
    MutexOwnerGone,
    MutexRing,
    NotRecursive,
    OnlyOwnerUnlocks,
    PrivateMutexCopied,
    RelocksOwnMutex,
)

CANDIDATES = frozenset({ProbeKind.IDLE, ProbeKind.WAITING, ProbeKind.STALLED, ProbeKind.DEADLOCK})


def _owned(t: ThreadDelta) -> bool:
    """Parked in an untimed lock wait on a mutex whose owner the look read."""
    w = t.wait
    return bool(t.parked and w is not None and w.kind is WaitKind.LOCK and w.owner is not None)


def _who(t: ThreadDelta, pid: int) -> str:
    return f"thread {t.tid} ({'main thread, ' if t.tid == pid else ''}{t.comm})"


def mutex_match(f: ProbeFinding) -> names.Match | None:
    """The shape the mutexes' owners show in `f`: a thread waiting for its own mutex, a cycle
    of threads through mutexes, or a mutex left locked by a thread that exited; None otherwise."""
    found = _shape(f)
    return found[0] if found else None


def _shape(f: ProbeFinding) -> tuple[names.Match, frozenset[int]] | None:
    """`mutex_match`'s shape and every thread it stops: those in it and those waiting, through
    owners, for one of them."""
    waits = {t.tid: t for t in f.threads if _owned(t)}
    found = _core(f, waits)
    if found is None:
        return None
    match, core = found
    stopped = set(core)
    grew = True
    while grew:
        grew = False
        for tid, t in waits.items():
            w = t.wait
            if tid not in stopped and w is not None and w.owner in stopped:
                stopped.add(tid)
                grew = True
    return match, frozenset(stopped)


def _core(f: ProbeFinding, waits: dict[int, ThreadDelta]) -> tuple[names.Match, set[int]] | None:
    """The shape and the threads in it (before those waiting behind them)."""
    for t in waits.values():
        w = t.wait
        if w is not None and w.owner == t.tid:
            return _m(
                names.SELF_LOCK,
                (RelocksOwnMutex(_who(t, f.pid), w.addr or 0), NotRecursive()),
                {t.tid},
            )
    for t in waits.values():
        w = t.wait
        if w is not None and w.owner_pid not in (None, 0, f.pid) and private_futex(t):
            return _m(
                names.FORK_HELD_LOCK,
                (ForeignOwnerMutex(_who(t, f.pid), w.addr or 0, w.owner, w.owner_pid), PrivateMutexCopied()),
                {t.tid},
            )
    cycle = _cycle(waits)
    if cycle:
        lines: list[Fact] = []
        for tid in cycle:
            t = waits[tid]
            w = t.wait
            assert w is not None  # every thread in `waits` has one (_owned)
            lines.append(MutexHeldBy(_who(t, f.pid), w.addr or 0, w.owner))
        lines.append(MutexRing())
        return _m(names.LOCK_ORDER, tuple(lines), set(cycle))
    for t in waits.values():
        w = t.wait
        if w is not None and w.owner_pid == 0:
            return _m(
                names.MUTEX_OWNER_GONE,
                (MutexOwnerGone(_who(t, f.pid), w.addr or 0, w.owner), OnlyOwnerUnlocks()),
                {t.tid},
            )
    return None


def _m(pattern: str, facts: tuple[Fact, ...], core: set[int]) -> tuple[names.Match, set[int]]:
    return names.Match(pattern, names.HINTS[pattern], facts), core


def _cycle(waits: dict[int, ThreadDelta]) -> list[int]:
    """Threads of one process that wait, each, for a mutex the next one holds, round to the
    first (empty when no such cycle exists)."""
    for start in sorted(waits):
        path: list[int] = []
        tid: int | None = start
        while tid is not None and tid in waits and tid not in path:
            path.append(tid)
            w = waits[tid].wait
            tid = w.owner if w is not None else None
        if tid is not None and tid in path and len(path[path.index(tid) :]) >= 2:
            return path[path.index(tid) :]
    return []


def judge_mutex(case: Case) -> Found | None:
    """A process whose main thread, or every thread, is caught in a mutex shape (`mutex_match`)
    is deadlocked whatever else /proc made of it; None when no mutex shape stops it."""
    f = case.finding
    if f.kind not in CANDIDATES:
        return None
    found = _shape(f)
    if found is None:
        return None
    match, stopped = found
    if f.pid not in stopped and any(not t.parked for t in f.threads):
        return None  # a worker thread is wedged, but the process still runs: not the process's hang
    reason = match.pattern
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason, chain=(*f.chain, *match.evidence)), match
