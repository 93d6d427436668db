"""Pools and queues between processes worded (`model.evidence.pools`): a result that can never
arrive, a lost task, a pool that respawns dying workers, a queue item its feeder dropped, a
shared lock or semaphore whose holder died."""

from __future__ import annotations

from typing import assert_never

from gvlstress.judge.words import phrases
from gvlstress.model.evidence.pools import (
    BehindWorkers,
    BytesUnread,
    CycleWithConsumer,
    DeadChildren,
    DeadLeftUnreaped,
    FeederKeptObject,
    HolderNotLiving,
    MainAwaitsResult,
    NativePoolAll,
    NativePoolAlone,
    NoIdleWorker,
    NoOtherMapper,
    NoOtherSetsIt,
    NothingDelivered,
    NothingInFlight,
    OnlyDeliverer,
    OrphanSemWait,
    PoolFact,
    PutReturned,
    QueueLockWait,
    QueueReadsEmpty,
    ReaderWaitsOwnPool,
    ResultThreadDied,
    StartedAfterSiblings,
    SysvSemWait,
    SysvTakerExited,
    WorkersChurn,
    WorkersReplaced,
    WorkersWaitTask,
)


def _pids(pids: tuple[int, ...]) -> str:
    return ", ".join(map(str, pids))


def _value(count: int | None) -> str:
    return str(count) if count is not None else "?"


def word(fact: PoolFact) -> str:
    """The sentence of one fact."""
    match fact:
        case MainAwaitsResult(what, at):
            return f"the main thread waits for a result of its {what}" + (
                f" at {at}" if at is not None else ""
            )
        case ResultThreadDied(what, reader):
            return (
                f"the {what}'s {reader} does not exist: it delivers every result to the launcher, and it has died "
                "(an exception in it: a result that could not be unpickled, a bug in its loop; its traceback went "
                "to stderr)"
            )
        case NoOtherSetsIt(busy):
            return "no other thread sets the result the main thread waits for, whatever they do" + (
                f" ({busy[0]} other thread(s) use {busy[1]:.2f} CPU-s)" if busy is not None else ""
            )
        case ReaderWaitsOwnPool(what, reader, tid, at):
            return (
                f"the {what}'s {reader} waits for a result of its own pool: thread {tid}, at {at} (inside a "
                "callback it runs)"
            )
        case OnlyDeliverer():
            return (
                "it is the only thread that delivers the pool's results, so the result it waits for, and the main "
                "thread's, can never arrive"
            )
        case WorkersWaitTask(workers):
            return (
                f"all {len(workers)} worker(s) ({_pids(workers)}) wait for a task, at every look over the window"
                if workers
                else "no worker process is left to run the task"
            )
        case NothingInFlight():
            return (
                "no byte waits in any pipe between the launcher and its workers, and the launcher has nothing left "
                "to hand out: nobody holds the task, so its result will never come"
            )
        case WorkersReplaced(pids, after_s):
            return (
                f"worker(s) {_pids(pids)} started {after_s:.2f} s after the first: the pool replaced a worker "
                "that exited (killed, or it called exit) while it held the task"
            )
        case DeadChildren(pids):
            return f"dead, unreaped child(ren): {_pids(pids)}"
        case WorkersChurn(seconds, born, gone, codes):
            return (
                f"over {seconds:.1f}s its workers kept changing: {len(born)} started and {gone} exited (new pids "
                f"{_pids(born[:4])}{'...' if len(born) > 4 else ''})"
                + (f"; the dead caught exited with code {_pids(codes)}" if codes else "")
            )
        case NothingDelivered():
            return (
                "the pool's result handler read nothing: no worker delivered anything before it died; each dying "
                "worker printed why on stderr (an initializer that raises, a script without an `if __name__ == "
                "'__main__':` guard re-run by spawn)"
            )
        case BehindWorkers(hung, state, reason):
            return (
                f"the main thread waits for its pool's results; worker(s) {_pids(hung)} hold its tasks and are "
                f"{state}ed themselves: {reason}"
            )
        case NativePoolAlone(tid, pool, future):
            return (
                f"thread {tid}, the only worker of its pool ({pool}), is inside a task blocked in {future}: the "
                "work that future waits for is queued to this same pool, behind the task that waits"
            )
        case NativePoolAll(tids, pool, future):
            return (
                f"all {len(tids)} workers of one pool ({pool}; threads {phrases.tids(tids)}) are inside tasks "
                f"blocked on futures ({future}): none is free to run the work those futures wait for, queued "
                "behind them"
            )
        case NoIdleWorker():
            return "no worker of the pool waits idle in its loop, so nothing queued to it can run"
        case QueueReadsEmpty(pid, pipe):
            return f"process {pid} reads {pipe} for its queue's next item (Connection._recv), and no byte waits there"
        case FeederKeptObject(pid, tid, value):
            return (
                f"process {pid}, which holds the pipe's write end, has a queue feeder thread {tid} idle in "
                f"Queue._feed whose last item `obj` is still an object ({value}), not the pickled bytes "
                "it sends: pickling it failed, the feeder printed the error and dropped it"
            )
        case PutReturned():
            return (
                "put() had returned long before, so the producer thinks it answered; nothing else will write"
            )
        case CycleWithConsumer(reason):
            return f"in a cycle with a queue's consumer: {reason}"
        case QueueLockWait(tid, path, count, mappers):
            return (
                f"thread {tid} waits, untimed, for a multiprocessing queue's read lock: a semaphore in shared "
                f"memory ({path}), value {_value(count)}, mapped by process(es) {_pids(mappers)}"
            )
        case BytesUnread(count, pipes, waiters):
            return (
                f"{count} byte(s) wait in {', '.join(pipes)}, the pipe that lock guards, and no live process reads "
                f"it: process(es) {_pids(waiters)} wait for the lock, the others are nowhere inside that queue's get"
            )
        case HolderNotLiving():
            return "a semaphore has no owner: the process that took it last is not among the living"
        case DeadLeftUnreaped(dead):
            return f"dead child(ren) left unreaped: {dead}"
        case StartedAfterSiblings(pids):
            return f"worker(s) {_pids(pids)} started after their siblings: replacements"
        case SysvSemWait(tid, detail):
            return f"thread {tid} waits, untimed, in {detail}"
        case SysvTakerExited(pid):
            return (
                f"the semaphore is at 0 and the last process that operated on it (semctl GETPID), pid {pid}, "
                "has exited: it took the semaphore and was never to give it back (a System V semaphore is "
                "released for a dead process only when taken with SEM_UNDO)"
            )
        case OrphanSemWait(tid, path, count):
            return (
                f"thread {tid} waits, untimed, on a multiprocessing semaphore in shared memory ({path}), "
                f"value {_value(count)}"
            )
        case NoOtherMapper():
            return (
                "no other process on this host maps it, and every other thread of this one waits on a lock: the "
                "process that was to release or notify it has exited"
            )
        case _:
            assert_never(fact)
