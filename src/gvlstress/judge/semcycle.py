"""A multiprocessing semaphore only processes that wait for this one could post (pure).

A semaphore has no owner: who can post it is found by elimination among the processes that map
it (`model.wiring.SharedLock`). When every other mapper waits, untimed, for this process to exit
(a parent that took the lock, started the child and joins it) and no other thread of either can
post it, each waits for the other: a cycle, named with the semaphore and the join.
"""

from __future__ import annotations

from dataclasses import replace

from gvlstress.judge.case import Case, Found
from gvlstress.judge.names import HINTS, WAIT_CYCLE, Match
from gvlstress.model import ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.wiring import Relatives


def _blocked_on_locks(threads: tuple[ThreadDelta, ...], but: int) -> bool:
    """Every thread but `but` parked in an untimed lock wait: none of them can post anything."""
    return all(
        t.parked and t.wait is not None and t.wait.kind is WaitKind.LOCK for t in threads if t.tid != but
    )


def _joins(m: ProbeFinding, pid: int, relatives: Relatives) -> ThreadDelta | None:
    """The thread of `m` waiting for `pid`'s exit (wait4 on it, or on any child when `pid` is
    its child), when nothing else of `m` can act."""
    p = m.progress_thread()
    if p is None or not p.parked or p.wait is None or p.wait.kind is not WaitKind.CHILD:
        return None
    child = p.wait.child
    if not (child == pid or ((child is None or child <= 0) and relatives.parents.get(pid) == m.pid)):
        return None
    return p if _blocked_on_locks(m.threads, p.tid) else None


def semaphore_cycle(case: Case) -> Found | None:
    """An untimed wait on a multiprocessing semaphore at 0 whose every other mapper joins this
    process: the lock is theirs to release, and they wait for this process to end first."""
    f, wiring, relatives = case.finding, case.wiring, case.relatives
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
    others = sorted(set(lock.mappers) - {f.pid})
    findings = case.others.findings
    if not others or any(m not in findings for m in others):
        return None
    joiners = [(m, t) for m in others if (t := _joins(findings[m], f.pid, relatives)) is not None]
    if len(joiners) != len(others):
        return None
    evidence = (
        f"thread {p.tid} waits, untimed, on a multiprocessing semaphore in shared memory ({lock.path}), "
        f"value {lock.count if lock.count is not None else '?'}; only the processes that map it can post it: "
        f"{', '.join(map(str, others))}",
        *(
            f"process {m} (thread {t.tid}) waits for process {f.pid} to exit ({t.wait.detail if t.wait else 'wait4'}), "
            "and none of its other threads can post the semaphore"
            for m, t in joiners
        ),
        f"each waits for the other: process {f.pid} for the semaphore they hold (a lock taken before the "
        "process was started), they for its exit",
    )
    reason = (
        f"waits on a semaphore that only process(es) {', '.join(map(str, others))} can post, which join it"
    )
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(WAIT_CYCLE, HINTS[WAIT_CYCLE], evidence)
