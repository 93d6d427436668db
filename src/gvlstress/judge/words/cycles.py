"""Waits across processes worded (`model.evidence.cycles`): a cycle of waits, a party that waits
forever, a process that waits for itself, a join before draining a pipe, a cycle of pipes, an
executor wedged by a dead worker, a semaphore cycle, a process behind a hung child or quiet over a
hang in its tree, a child stopped by job control that nothing will continue."""

from __future__ import annotations

from typing import assert_never

from gvlstress.model.evidence.cycles import (
    ChildDeadlocked,
    ChildPipeFull,
    ChildrenExited,
    CycleFact,
    CycleParked,
    DeadUnreaped,
    FdWaiterBehindLock,
    HoldsOtherEnd,
    JoinsBlockedChild,
    MainAwaitsPool,
    ManagerInFrame,
    NoReaderReads,
    NotToldOfStops,
    OnlySelfCanEnd,
    ParentAwaitsExit,
    PartyWait,
    PipeCycleAll,
    PipeStep,
    QuietOverHang,
    ReadsOnlyFrom,
    ResultLockDead,
    SemDeadMapper,
    SemNoOwner,
    SemWait,
    StoppedByTerminal,
    WaitsForever,
    WaitsForFdWaiter,
    WorkerAwaitsSend,
    WriteEndsOpen,
    WritersDeadlocked,
)


def _pids(pids: tuple[int, ...]) -> str:
    return ", ".join(map(str, pids))


def word(fact: CycleFact) -> str:
    """The sentence of one fact."""
    match fact:
        case PartyWait(pid, tid, how, parties):
            return f"process {pid} thread {tid} waits in {how}: only process(es) {_pids(parties)} can end it"
        case WaitsForever(pid, comm, how):
            return (
                f"process {pid} ({comm}), on which that wait depends, waits forever itself: {how}; "
                "nothing in the look can end its wait, so nothing will end this one"
            )
        case OnlySelfCanEnd(pid, tid, how):
            return f"process {pid} thread {tid} waits in {how}: only process {pid} itself can end it"
        case ChildrenExited(pids):
            return f"its child(ren) {_pids(pids)} exited: their exit cannot end a wait whose other end it holds itself"
        case HoldsOtherEnd(pid, comm):
            return (
                f"process {pid} ({comm}) holds the other end itself, has no other thread left to write, close or "
                "unlock it, and catches no signal whose handler could: it waits for itself"
            )
        case WaitsForFdWaiter(tid, pid):
            return (
                f"thread {tid} waits for a thread that waits on a descriptor whose other end only process {pid} "
                "holds, and no thread of it is left to write, close or unlock that end but the ones waiting: the "
                "threads wait for one another"
            )
        case FdWaiterBehindLock(tid, pid):
            return (
                f"thread {tid} waits on a descriptor whose other end only process {pid} holds, and the other "
                "thread(s) that could write, close or unlock it wait on a lock of this process that none but the "
                "waiters can release: the threads wait for one another"
            )
        case CycleParked(members):
            return (
                f"every thread of process(es) {_pids(members)} is parked with no CPU over the window in a "
                "wait only these processes can end, with no timer and no end outside them: a cycle, none can move"
            )
        case ParentAwaitsExit(pid, detail, child):
            named = f"child {child}" in detail
            return f"process {pid} waits in {detail}" + ("" if named else f" for child {child}") + " to exit"
        case ChildPipeFull(child, tid, detail):
            return f"child {child}'s thread {tid} is blocked in {detail}: the pipe is full"
        case NoReaderReads(readers, pipe):
            return (
                f"only processes {_pids(readers)} hold {pipe} open for reading, and none "
                "of them reads it: the parent waits for the child, the child for the parent"
            )
        case MainAwaitsPool():
            return "the main thread waits for its ProcessPoolExecutor's results"
        case ManagerInFrame(tid, detail):
            return (
                f"the executor's manager thread {tid} is blocked in {detail}, inside a result "
                "frame (Connection._recv), not in its poll between frames"
            )
        case DeadUnreaped(dead):
            return (
                f"dead, unreaped worker(s): {dead}; the manager thread reaps a dead worker from that poll, so it "
                "never will: a worker died while sending its result, holding the result queue's lock"
            )
        case WriteEndsOpen():
            return "the pipe's write ends stay open in this process and the other workers, so the read never sees EOF"
        case WorkerAwaitsSend(launcher):
            return (
                f"this worker of process {launcher}'s ProcessPoolExecutor finished its task and waits to send "
                "the result (_sendback_result)"
            )
        case ResultLockDead(dead):
            return (
                f"the result queue's lock is held by dead worker(s) {dead}: a lock in shared memory whose "
                "holder is gone"
            )
        case PipeStep(pid, how, other):
            return f"process {pid} waits in {how} process {other}"
        case PipeCycleAll(count):
            return f"each of the {count} processes waits for the next: none can write, none returns"
        case SemWait(pid, tid, path, count, mappers):
            return (
                f"process {pid} (thread {tid}) waits, untimed, on a multiprocessing semaphore in shared memory "
                f"({path}), value {count if count is not None else '?'}, mapped by {_pids(mappers)}"
            )
        case JoinsBlockedChild(pid, tid, child):
            return (
                f"process {pid} (thread {tid}) waits for process {child} to exit, and none of its other threads can "
                "post a semaphore"
            )
        case ReadsOnlyFrom(pid, hows, parties):
            return f"process {pid} waits in {'; '.join(hows)}: only process(es) {_pids(parties)} can end it"
        case SemNoOwner(members):
            return (
                f"a semaphore names no owner: only the processes that map one can post it, and each of "
                f"{_pids(members)} waits for another of them, with no other thread free"
            )
        case SemDeadMapper(dead):
            gone = "; ".join(f"process {p}'s dead child(ren) {_pids(kids)}" for p, kids in dead)
            return (
                f"every live process that maps it waits, and {gone} died unreaped: a process that died inside the "
                "lock (killed while it held it) leaves it taken for good"
            )
        case ChildDeadlocked(pid, child):
            return f"process {pid} waits in wait4() for its child {child}, which is deadlocked"
        case WritersDeadlocked(pid, pipe, writers):
            several = len(writers) > 1
            return (
                f"process {pid} waits in read() on {pipe}; its only writer{'s' if several else ''} "
                f"{_pids(writers)} (its child) {'are' if several else 'is'} deadlocked"
            )
        case QuietOverHang(pid, hung, state, reason):
            return f"no progress from process {pid} while process {hung} in its tree is {state}ed: {reason}"
        case StoppedByTerminal(child, terminal, call):
            return (
                f"child {child} is stopped by the job control of {terminal}: it called {call}() on it from a "
                "background process group it leads, one no shell outside made (SIGTTIN, SIGTTOU)"
            )
        case NotToldOfStops(pid, call, others):
            rest = (
                f"; none of {_pids(others)} runs or has a timer"
                if others
                else "; no other process is looked at"
            )
            return (
                f"process {pid} waits in {call}() without WUNTRACED: it is never told of the stop, so it never "
                f"continues the child{rest}: nothing in the tree will send the SIGCONT"
            )
        case _:
            assert_never(fact)
