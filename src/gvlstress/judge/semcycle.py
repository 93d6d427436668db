"""Multiprocessing semaphores only processes that wait themselves could post (pure).

A semaphore has no owner: who can post it is found by elimination among the processes that map
it (`model.wiring.SharedLock`). A process waits, untimed, on one at 0; every other process that
maps it is blocked in turn, either joining a process of the set (a parent that took the lock,
then started and joined the child) or waiting, untimed, on another such semaphore whose mappers
are all in the set (two multiprocessing Locks taken in opposite orders by two processes), or
reading descriptors whose other ends only processes of the set hold (a child reading a queue the
parent would fill once its Event is set); and no other thread of any of them can post anything. Each waits for another of the set: a cycle,
named with the semaphores and the joins.
"""

from __future__ import annotations

from dataclasses import replace

from gvlstress.judge.case import Case, Found
from gvlstress.judge.cycles import Step, waits_of
from gvlstress.judge.names import DEAD_LOCK_HOLDER, HINTS, WAIT_CYCLE, Match
from gvlstress.model import ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.evidence import (
    Fact,
    JoinsBlockedChild,
    ReadsOnlyFrom,
    SemDeadMapper,
    SemNoOwner,
    SemWait,
)
from gvlstress.model.wiring import Relatives, SharedLock, Wiring

MAX_SET = 16
"""Processes followed at most: a set that large is judged by whoever looks at it whole."""


def _blocked_on_locks(threads: tuple[ThreadDelta, ...], but: int) -> bool:
    """Every thread but `but` parked in an untimed lock wait: none of them can post anything."""
    return all(
        t.parked and t.wait is not None and t.wait.kind is WaitKind.LOCK for t in threads if t.tid != but
    )


def _sem_wait(f: ProbeFinding, wiring: Wiring) -> tuple[ThreadDelta, SharedLock] | None:
    """The process's thread waiting, untimed, on a semaphore at 0 in shared memory, when nothing
    else of it can act: (the thread, the semaphore)."""
    p = f.progress_thread()
    if (
        p is None
        or not p.parked
        or p.wait is None
        or p.wait.kind is not WaitKind.LOCK
        or p.futex_addr is None
    ):
        return None
    lock = wiring.shared.get((f.pid, p.futex_addr))
    if (
        lock is None
        or not lock.complete
        or lock.count not in (0, None)
        or not _blocked_on_locks(f.threads, p.tid)
    ):
        return None
    return p, lock


def _joins(m: ProbeFinding, within: set[int], relatives: Relatives) -> tuple[ThreadDelta, int] | None:
    """The thread of `m` waiting for the exit of a process of `within` (wait4 on it, or on any
    child when one of them is its child), when nothing else of `m` can act."""
    p = m.progress_thread()
    if p is None or not p.parked or p.wait is None or p.wait.kind is not WaitKind.CHILD:
        return None
    child = p.wait.child
    kids = [
        c
        for c in within
        if c == child or ((child is None or child <= 0) and relatives.parents.get(c) == m.pid)
    ]
    return (p, kids[0]) if kids and _blocked_on_locks(m.threads, p.tid) else None


def semaphore_cycle(case: Case) -> Found | None:
    """An untimed wait on a multiprocessing semaphore at 0 that only processes blocked in turn
    (on such semaphores, or joining one of them) could post: a cycle across processes."""
    f, wiring, relatives = case.finding, case.wiring, case.relatives
    findings = {**case.others.findings, f.pid: f}
    first = _sem_wait(f, wiring)
    if first is None:
        return None
    waits: dict[int, tuple[ThreadDelta, SharedLock]] = {f.pid: first}
    joins: dict[int, tuple[ThreadDelta, int]] = {}
    todo = sorted(set(first[1].mappers) - {f.pid})
    if not todo:
        return None  # no other process maps it: `queues.orphaned_semaphore` names that
    reads: dict[int, list[Step]] = {}
    while todo:
        m = todo.pop()
        if m in waits or m in joins or m in reads:
            continue
        if m not in findings or len(waits) + len(joins) + len(reads) >= MAX_SET:
            return None  # a mapper this look did not judge may post it
        sem = _sem_wait(findings[m], wiring)
        if sem is not None:
            waits[m] = sem
            todo.extend(x for x in sem[1].mappers if x not in waits and x not in joins)
            continue
        joined = _joins(findings[m], set(waits), relatives)
        if joined is not None:
            joins[m] = joined
            continue
        steps = waits_of(findings[m], wiring, relatives)
        if not steps or any(s.sink for s in steps):
            return None  # it may still post it: it reads what others may write, polls, sleeps or runs
        # every thread blocked on descriptors (a queue's pipe) whose other ends only these hold
        reads[m] = steps
        todo.extend(q for s in steps for q in s.parties if q != m)
    evidence: tuple[Fact, ...] = (
        *(
            SemWait(pid, t.tid, lock.path, lock.count, lock.mappers)
            for pid, (t, lock) in sorted(waits.items())
        ),
        *(JoinsBlockedChild(pid, t.tid, kid) for pid, (t, kid) in sorted(joins.items())),
        *(
            ReadsOnlyFrom(
                pid,
                tuple(s.how for s in steps[:2]),
                tuple(sorted({q for s in steps for q in s.parties if q != pid})),
            )
            for pid, steps in sorted(reads.items())
        ),
        SemNoOwner(tuple(sorted({*waits, *joins, *reads}))),
    )
    who = ", ".join(map(str, sorted(set(first[1].mappers) - {f.pid})))
    dead = {
        p: sorted(relatives.zombies[p]) for p in sorted({*waits, *joins, *reads}) if relatives.zombies.get(p)
    }
    if dead:
        # a child that died unreaped may have mapped it and held it (a worker killed inside the lock)
        gone = "; ".join(
            f"process {p}'s dead child(ren) {', '.join(map(str, kids))}" for p, kids in dead.items()
        )
        reason = f"waits on a semaphore no live process can post: {gone}, unreaped, may have held it"
        lines = (*evidence[:-1], SemDeadMapper(tuple((p, tuple(kids)) for p, kids in dead.items())))
        return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(
            DEAD_LOCK_HOLDER, HINTS[DEAD_LOCK_HOLDER], lines
        )
    reason = f"waits on a semaphore that only process(es) {who} could post, and they wait too"
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(WAIT_CYCLE, HINTS[WAIT_CYCLE], evidence)
