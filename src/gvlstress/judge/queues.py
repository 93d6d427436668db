"""multiprocessing's queues and locks across processes (pure): a lost item, a lock held by the dead.

Two hangs whose wait graph alone reads as something else:

- **An item its queue's feeder thread dropped.** ``Queue.put()`` only appends to a buffer; the
  feeder thread pickles it later and, when pickling fails, prints the error and drops the item.
  The consumer then reads an empty pipe forever (what /proc shows is a reader and a writer waiting
  on each other). CPython's ``Queue._feed`` rebinds its local ``obj`` to the pickled bytes only
  when pickling succeeds, so an idle feeder whose ``obj`` is still an object (not a memoryview)
  dropped the last item it took. The locals are read only for processes whose stacks show a
  feeder (`LOCALS`).
- **A lock shared between processes whose holder died.** A multiprocessing Lock, Semaphore or
  Queue lock is a POSIX semaphore: it names no owner, so its holder is found by elimination among
  the processes that map it (`model.wiring.SharedLock`). A queue's read lock is held exactly while
  its holder reads the queue's pipe; when items wait in that pipe, every live process that could
  hold the lock waits on it instead, and nobody reads the pipe, the holder is gone (a worker
  SIGKILLed or terminated while it waited for a task).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from gvlstress.judge import vocab
from gvlstress.judge.case import Case, Found
from gvlstress.judge.names import DEAD_LOCK_HOLDER, FEEDER_DROPPED, HINTS, PIPE_CYCLE, Match
from gvlstress.judge.tree import died
from gvlstress.model import Capture, ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.evidence import (
    BytesUnread,
    CycleWithConsumer,
    DeadLeftUnreaped,
    Fact,
    FeederKeptObject,
    HolderNotLiving,
    NoOtherMapper,
    OrphanSemWait,
    PutReturned,
    QueueLockWait,
    QueueReadsEmpty,
    StartedAfterSiblings,
    SysvSemWait,
    SysvTakerExited,
)
from gvlstress.model.wiring import Wiring

LOCALS = {("multiprocessing/queues.py", "_feed"): ("obj",)}
"""A queue's feeder thread: the last item it took, or the bytes it sent."""
_SENT = ("<memoryview>", "<bytes>", "<bytearray>")
"""What ``_feed``'s ``obj`` is after a successful send (the pickle)."""


def _main(f: ProbeFinding) -> ThreadDelta | None:
    return f.progress_thread()


def _reads_pipe(t: ThreadDelta | None) -> str | None:
    if t is None or not t.parked or t.wait is None or t.wait.kind is not WaitKind.IO:
        return None
    if t.wait.syscall not in ("read", "readv") or not t.wait.link.is_pipe:
        return None
    return t.wait.fd_target


def dropped(
    f: ProbeFinding, capture: Capture | None, captures: Mapping[int, Capture], wiring: Wiring
) -> tuple[ProbeFinding, Match] | None:
    """A consumer reading an empty queue pipe whose writer's feeder dropped the item it waits for."""
    view = capture.thread(f.progress_tid or f.pid) if capture else None
    pipe = _reads_pipe(_main(f))
    if pipe is None or view is None or not vocab.python_at(view, "multiprocessing/connection.py", "_recv", 6):
        return None
    file = next((x for x in wiring.files.get(f.pid, ()) if x.target == pipe), None)
    if file is not None and file.queued:
        return None  # bytes wait: it is about to read them
    writers = sorted({h.pid for h in wiring.holders.get(pipe, ()) if "w" in h.mode})
    for w in writers:
        cap = captures.get(w)
        if cap is None:
            continue
        for var in cap.locals:
            if var.function != "_feed" or var.name != "obj" or var.value in _SENT:
                continue
            feeder = cap.thread(var.tid)
            if feeder is None or not vocab.python_at(feeder, "multiprocessing/queues.py", "_feed", 4):
                continue
            evidence = (QueueReadsEmpty(f.pid, pipe), FeederKeptObject(w, var.tid, var.value), PutReturned())
            reason = f"its queue's item was dropped by process {w}'s feeder thread: it never reaches {pipe}"
            return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(
                FEEDER_DROPPED, HINTS[FEEDER_DROPPED], evidence
            )
    return None


def _queue_lock_wait(
    f: ProbeFinding, capture: Capture | None, wiring: Wiring
) -> tuple[ThreadDelta, str] | None:
    """The progress thread waits, untimed, for a queue's read lock in shared memory: (the thread,
    the lock's key)."""
    t = _main(f)
    view = capture.thread(t.tid) if capture and t else None
    if t is None or view is None or not t.parked or t.wait is None or t.wait.kind is not WaitKind.LOCK:
        return None
    lock = wiring.shared.get((f.pid, t.futex_addr or 0))
    getting = vocab.python_at(view, "multiprocessing/queues.py", "get", 4)
    if (
        lock is None
        or not getting
        or not vocab.python_at(view, "multiprocessing/synchronize.py", "__enter__", 2)
    ):
        return None
    return t, lock.key


def dead_holder(case: Case) -> Found | None:
    """A wait on a queue's read lock whose holder is dead: items wait in a pipe every waiter
    holds, and no live process that maps the lock reads that pipe or could hold the lock."""
    f, capture, wiring, relatives = case.finding, case.capture, case.wiring, case.relatives
    findings, captures = case.others.findings, case.others.captures
    own = _queue_lock_wait(f, capture, wiring)
    if own is None:
        return None
    t, key = own
    lock = wiring.shared[(f.pid, t.futex_addr or 0)]
    if not lock.complete or lock.count not in (0, None):
        return None
    waiters = {pid for (pid, _), sl in wiring.shared.items() if sl.key == key}
    live = [m for m in lock.mappers if m in findings and findings[m].kind is not ProbeKind.GONE]
    if any(m not in findings for m in lock.mappers) or any(
        findings[m].kind is ProbeKind.STOPPED for m in live
    ):
        return None  # a mapper this look did not judge, or one held stopped: it may hold the lock
    queued = [
        x
        for x in wiring.files.get(f.pid, ())
        if x.link.is_pipe
        and x.queued
        and "r" in x.mode
        and all(any(y.target == x.target and "r" in y.mode for y in wiring.files.get(w, ())) for w in waiters)
    ]
    if not queued:
        return None  # nothing waits to be read: the lock may be free in a moment
    pipes = {x.target for x in queued}
    reading = [m for m in live for th in findings[m].threads if _reads_pipe(th) in pipes or not th.parked]
    if reading:
        return None  # someone reads (or runs): it may hold the lock
    for m in live:
        if m in waiters:
            continue
        cap = captures.get(m)
        if cap is None:
            return None  # no stacks: it may be inside that queue's get, holding its lock
        for v in cap.threads:
            if not vocab.python_at(v, "multiprocessing/queues.py", "get", 6):
                continue
            th = next((x for x in findings[m].threads if x.tid == v.tid), None)
            other = _reads_pipe(th)
            if other is None or other in pipes:
                return (
                    None  # inside that queue's get, or one whose pipe it does not read: it may hold the lock
                )
    dead = [(p, c, st) for p, kids in relatives.zombies.items() for c, st in kids.items()]
    begun = {m: relatives.started[m] for m in waiters if m in relatives.started}
    later = sorted(m for m in begun if begun[m] - min(begun.values()) > 0.1)
    evidence: list[Fact] = [
        QueueLockWait(t.tid, lock.path, lock.count, lock.mappers),
        BytesUnread(sum(x.queued or 0 for x in queued), tuple(sorted(pipes)), tuple(sorted(waiters))),
        HolderNotLiving(),
    ]
    if dead:
        evidence.append(DeadLeftUnreaped(died({c: st for _, c, st in dead})))
    if later:
        evidence.append(StartedAfterSiblings(tuple(later)))
    reason = "waits for a lock shared between processes whose holder has died"
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(
        DEAD_LOCK_HOLDER, HINTS[DEAD_LOCK_HOLDER], tuple(evidence)
    )


def mark_dropped(
    linked: dict[int, tuple[ProbeFinding, Match | None]], captures: Mapping[int, Capture], wiring: Wiring
) -> None:
    """A consumer whose queue item its producer's feeder dropped is named so, and so is every
    process of the pipe cycle it is part of (a reader and a writer waiting on each other is what
    the drop looks like from outside)."""
    found = {}
    for pid, (f, _) in linked.items():
        got = dropped(f, captures.get(pid), captures, wiring)
        if got is not None:
            found[pid] = got
    linked.update(found)
    if not found:
        return
    first = next(iter(found.values()))[1]
    for pid, (f, named) in list(linked.items()):
        if pid not in found and named is not None and named.pattern == PIPE_CYCLE:
            linked[pid] = (
                f,
                Match(
                    FEEDER_DROPPED,
                    first.hint,
                    (CycleWithConsumer(f.reason), *first.facts),
                ),
            )


def dead_sem_holder(case: Case) -> Found | None:
    """A wait, untimed, on a System V semaphore at 0 whose last operator (the process that took
    it: semctl GETPID) has exited, with no other thread of the waiter able to post it: taken
    without SEM_UNDO by a process that was killed, it is never given back."""
    f = case.finding
    p = f.progress_thread()
    if p is None or p.wait is None or p.wait.kind is not WaitKind.SEMAPHORE or not p.parked:
        return None
    s = p.wait.sem
    if s is None or s.value != 0 or s.last_pid <= 0 or s.last_alive:
        return None
    rest = [t for t in f.threads if t.tid != p.tid]
    if any(not t.parked or t.wait is None or t.wait.kind is not WaitKind.LOCK for t in rest):
        return None  # another thread of its own may post it
    evidence = (SysvSemWait(p.tid, p.wait.detail), SysvTakerExited(s.last_pid))
    reason = f"waits for a System V semaphore whose last taker, pid {s.last_pid}, has exited"
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(
        DEAD_LOCK_HOLDER, HINTS[DEAD_LOCK_HOLDER], evidence
    )


def orphaned_semaphore(case: Case) -> Found | None:
    """A wait, untimed, on a multiprocessing semaphore at 0 (a lock, a condition, an event: a
    POSIX semaphore in /dev/shm) that no other process on the host maps, with no thread of its own
    able to post it: whoever was to release or notify it (a consumer's task_done(), a worker's
    release()) has exited, and a new process cannot find an unlinked semaphore."""
    f, wiring = case.finding, case.wiring
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
    if lock is None or not lock.complete or set(lock.mappers) - {f.pid} or lock.count not in (0, None):
        return None
    rest = [t for t in f.threads if t.tid != p.tid]
    if any(not t.parked or t.wait is None or t.wait.kind is not WaitKind.LOCK for t in rest):
        return None  # a thread of its own that reads, polls or runs may still post it
    evidence = (OrphanSemWait(p.tid, lock.path, lock.count), NoOtherMapper())
    reason = "waits on a semaphore shared between processes that no other process maps any more"
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(
        DEAD_LOCK_HOLDER, HINTS[DEAD_LOCK_HOLDER], evidence
    )
