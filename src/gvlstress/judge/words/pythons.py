"""Python stack shapes' facts worded (`model.evidence.pythons`): a lock taken in a signal
handler or under its own caller, a blocked event loop, exit-time joins, Queue.join, lock orders,
joins and lost wakeups, the import lock, a thread pool exhausted or held across a lock."""

from __future__ import annotations

from typing import assert_never

from gvlstress.judge.words import phrases
from gvlstress.model.evidence.pythons import (
    AcquiresLock,
    BlockedBeside,
    ConditionWait,
    ConsumersWaitItems,
    ExitJoins,
    HandlerAcquires,
    HandlerInterrupted,
    HeldAcrossWait,
    ImportLockHolder,
    ImportLockWait,
    JoinCycle,
    JoinerAmong,
    JoinerWaitsWakeup,
    LoopBlocks,
    LoopStalled,
    NeverEnd,
    NobodyNotifies,
    NoConsumer,
    NoFreeWorker,
    NoThreadLeft,
    OnlyHolderWaitsPool,
    OthersBlocked,
    PoolTasksWaitFutures,
    PoolTasksWaitLock,
    PyLockAcquirer,
    PyLockWaiters,
    PythonFact,
    QueueJoinWaits,
    ReenteredThrough,
    SelfWait,
    ThreadJoins,
    WaitsForOneOfThem,
)


def word(fact: PythonFact) -> str:
    """The sentence of one fact."""
    match fact:
        case HandlerAcquires(tid, role, dispatch, at):
            return (
                f"thread {tid} ({role}) runs a signal handler ({dispatch} on its stack) and waits to acquire a "
                f"lock at {at}"
            )
        case HandlerInterrupted(below):
            return (
                "the handler interrupted this same thread's frames, which hold the lock and cannot go on until "
                "the handler returns" + (f" (below it: {', '.join(below)})" if below else "")
            )
        case SelfWait(tid, role, at, func, file, line, again, ender):
            what = "to acquire a lock" if at is None else f"at {at} (a Condition or queue wait)"
            held = (
                f"and {ender}, which ends that wait when it returns, is further down its own stack (line {again}): "
                "it waits for its own caller"
                if ender is not None
                else f"and {func} is further down its own stack (line {again}): the outer call holds what the inner "
                "one waits for"
            )
            return f"thread {tid} ({role}) waits {what} under {func} ({file}:{line}), {held}"
        case ReenteredThrough(calls):
            return (
                "re-entered through "
                + (" <- ".join(calls) if calls else "a direct call")
                + ": no other thread can release it, and this one waits for it"
            )
        case LoopBlocks(tid, role, loop, at):
            return f"thread {tid} ({role}) runs an asyncio event loop ({loop} on its stack) and blocks, untimed, at {at}"
        case LoopStalled():
            return (
                "the loop runs on this thread only: while it blocks, no task or callback of the loop runs, "
                "so what it waits for (a future the loop would complete) never comes"
            )
        case ExitJoins(pid):
            return (
                f"the main thread {pid} is in threading._shutdown: the program ended and the interpreter "
                "joins its non-daemon threads"
            )
        case NeverEnd(threads):
            return "they never end: " + (
                "; ".join(f"{tid} ({name}) at {at}" for tid, name, at in threads)
                or "none is left, yet the join waits"
            )
        case QueueJoinWaits(tid, role, at):
            return f"thread {tid} ({role}) waits in Queue.join() at {at}: it returns when every item got a task_done()"
        case ConsumersWaitItems(tids, at):
            return (
                f"{len(tids)} consumer(s) ({phrases.tids(tids)}) wait in Queue.get() for more items at {at}: the "
                "queue is drained, yet tasks are unfinished"
            )
        case NoThreadLeft():
            return (
                "no other thread exists: the consumers that took the unfinished items (or were to) have exited, "
                "and no thread is left to call task_done()"
            )
        case NoConsumer():
            return "no thread takes items from the queue, and no thread can call task_done()"
        case PyLockWaiters(threads, locks):
            return (
                f"{threads} Python threads wait to acquire {locks} different threading locks, and no thread "
                "outside them can release one:"
            )
        case PyLockAcquirer(tid, name, at, addr):
            return f"thread {tid} ({name}) at {at}, lock {addr:#x}"
        case JoinerAmong(tid, at):
            return f"thread {tid} waits in join() at {at}"
        case ConditionWait(tid, role, at, alone):
            return f"thread {tid} ({role}) waits in Condition/Event wait() with no timeout at {at}" + (
                ", and no thread is left to notify it" if alone else ""
            )
        case JoinerWaitsWakeup(tid, role, at):
            return f"thread {tid} ({role}) waits in Thread.join() at {at}: it waits for the wakeup too"
        case ThreadJoins(tid, at):
            return f"thread {tid} waits in Thread.join() at {at}"
        case OthersBlocked(count, threads):
            return f"the {count} other Python thread(s) are blocked themselves: " + (
                "; ".join(f"{tid} at {at}" for tid, at in threads) or "none exists"
            )
        case JoinCycle(tid, at, joiner):
            return (
                f"thread {tid} waits to acquire a lock at {at} that only thread {joiner} can hold (no other thread "
                f"is left): a cycle, {joiner} holds the lock while it waits for {tid} to end, and {tid} waits for "
                "the lock"
            )
        case NobodyNotifies(waiters, others):
            return (
                f"{waiters} thread(s) wait on conditions and the {others} other Python thread(s) are blocked "
                "themselves, so nothing in the process can notify"
                if others
                else f"{waiters} thread(s) wait on conditions and no other Python thread exists to notify"
            )
        case ImportLockWait(tid, role, at):
            return f"thread {tid} ({role}) waits for a module's import lock (importlib _ModuleLock.acquire) at {at}"
        case ImportLockHolder(tid, role, module, at):
            return (
                f"thread {tid} ({role}) holds it: it is running the top-level code of {module} for an import, and "
                f"waits at {at}"
            )
        case PoolTasksWaitFutures(tids, example, at):
            return (
                f"all {len(tids)} thread-pool workers ({phrases.tids(tids)}) are inside tasks that wait for a "
                f"future, e.g. thread {example} at {at}"
            )
        case NoFreeWorker():
            return "no worker is free to run the tasks they wait for, which are queued behind them"
        case WaitsForOneOfThem(tid, role, at):
            return f"thread {tid} ({role}) waits for one of them at {at}"
        case AcquiresLock(tid, role, at, addr):
            return f"thread {tid} ({role}) waits to acquire a lock at {at}" + (
                f" ({addr:#x})" if addr is not None else ""
            )
        case BlockedBeside(tid, role, joins, at):
            how = "waits in Thread.join()" if joins else "waits in a Condition/Event/queue wait"
            return f"thread {tid} ({role}) {how} at {at}"
        case HeldAcrossWait(blocked, tid):
            return (
                f"the lock is held by one of those {blocked} thread(s), across its wait; thread {tid} is the only "
                "thread not waiting for another, so only it could wake them, and it waits for the lock: a cycle"
            )
        case PoolTasksWaitLock(tids, addr, at):
            return (
                f"{len(tids)} thread-pool worker(s) ({phrases.tids(tids)}) wait, inside their tasks, to acquire one "
                f"lock ({addr:#x}) at {at}"
            )
        case OnlyHolderWaitsPool(tid, role, at):
            return (
                f"thread {tid} ({role}) waits for the pool's results at {at}, and is the only other thread: only "
                "it can hold that lock, so it holds it across its wait for the tasks that need it: a cycle"
            )
        case _:
            assert_never(fact)
