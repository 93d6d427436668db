"""The facts of one process's stack shapes worded (`model.evidence.locks`): the GIL across a rayon
region, mutex groups, a lock across a parallel region, pool exhaustion, the GIL against a native lock."""

from __future__ import annotations

from typing import assert_never

from gvlstress.judge.words import phrases
from gvlstress.model.evidence.locks import (
    BurntNoProgress,
    GilAcrossLatch,
    GilHolderOnNativeLock,
    GilWaiters,
    HeldByWaiters,
    HolderAmongGilWaiters,
    HolderWaitsJobs,
    LockFact,
    MutexGroups,
    NoIdlePoolThread,
    OneMutexWaiters,
    PoolAllBlocked,
    PoolWaitsGil,
    ThreadUsed,
    WaitsForPool,
)


def word(fact: LockFact) -> str:
    """The sentence of one fact."""
    match fact:
        case GilAcrossLatch(tid, role, seen, latch):
            how = "py-spy: owns_gil" if seen else "inferred: py-spy view missing"
            return f"thread {tid} ({role}) holds the GIL ({how}) and waits in {latch} for its rayon jobs"
        case PoolWaitsGil(tids, where):
            return f"{len(tids)} rayon pool thread(s) ({phrases.tids(tids)}) inside those jobs wait for the GIL in {where}"
        case MutexGroups(groups):
            return f"threads wait on {len(groups)} different mutexes: " + "; ".join(
                f"{addr:#x}: {len(ts)} thread(s) ({phrases.tids(ts)})" for addr, ts in groups
            )
        case HeldByWaiters():
            return (
                "each mutex is held by a thread that is itself waiting for another one of them "
                "(no thread outside these groups can release them)"
            )
        case OneMutexWaiters(tids, addr, where):
            return f"{len(tids)} thread(s) ({phrases.tids(tids)}) wait for one mutex at {addr:#x} in {where}"
        case HolderWaitsJobs(tid, role, latch):
            return (
                f"thread {tid} ({role}) does not wait for it but waits in {latch} for the very jobs that do: it holds "
                "the lock across the parallel region"
            )
        case PoolAllBlocked(pool, what, in_channel):
            return f"all {pool} rayon pool threads are inside jobs, blocked in {what}" + (
                f" ({in_channel} in channel operations)" if in_channel else ""
            )
        case NoIdlePoolThread():
            return (
                "no pool thread is idle in rayon's sleep, so the job that would unblock them (e.g. the "
                "channel's consumer) can never run"
            )
        case WaitsForPool(tid, latch):
            return f"thread {tid} waits in {latch} for the pool"
        case GilHolderOnNativeLock(tid, role, addr, at, called_from):
            return (
                f"thread {tid} ({role}) holds the GIL (py-spy: owns_gil) and waits on a native lock "
                f"(futex {addr:#x}) in {at}" + (f", called from {called_from}" if called_from else "")
            )
        case GilWaiters(tids, where, example):
            return f"{len(tids)} thread(s) ({phrases.tids(tids)}) wait for the GIL in {where}" + (
                f", e.g. thread {example[0]} at {example[1]}" if example else ""
            )
        case HolderAmongGilWaiters():
            return (
                "the lock's holder can only be one of the GIL's waiters (every other thread is blocked too): it "
                "waits for the GIL, the GIL's holder waits for its lock"
            )
        case BurntNoProgress(cpu_s, window_s):
            return f"{cpu_s:.2f} CPU-s burnt over {window_s:.2f}s with no progress"
        case ThreadUsed(tid, cpu_s, where):
            return f"thread {tid} used {cpu_s:.2f}s" + (f" in {where}" if where is not None else "")
        case _:
            assert_never(fact)
