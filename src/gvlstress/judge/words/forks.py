"""Fork hangs' facts worded (`model.evidence.forks`): a fork that never exec'd, the library or
runtime whose threads stayed in the parent, a prepare handler waiting or spinning."""

from __future__ import annotations

from typing import assert_never

from gvlstress.model.evidence.forks import (
    ConditionOnlyParent,
    ForeignThreadStates,
    ForkFact,
    ForkNoExec,
    HandlerRearms,
    InPrepareHandler,
    InsideFork,
    LibrarySpin,
    LibraryWait,
    LockHeldAtFork,
    LockHolderNotCopied,
    OthersWaitInside,
    OwnWaitsOnly,
    ParentLibraryThreads,
    ParentSpinWorkers,
    PrepareHandlerSpin,
    RearmedWait,
    RuntimeNotForked,
    RuntimeWorkersMissing,
    UntimedWait,
)

RUNTIME_WAITED = {
    "rayon": "pool jobs, and no rayon pool thread exists",
    "OpenMP": "an OpenMP team, and none of the process's threads is an OpenMP worker",
    "tokio": "an async runtime, and none of the process's threads belongs to it",
}
"""What a forked child's thread waits for, by runtime (`judge.patterns`' table of runtimes)."""
RUNTIME_NOT_FORKED = {
    "rayon": "rayon's pool threads were started before fork(); the child inherited the pool's bookkeeping but "
    "not its threads",
    "OpenMP": "the OpenMP runtime's pool was started before fork(); the child inherited its bookkeeping but not "
    "its threads (libgomp is not fork-safe: set the pool aside with spawn/forkserver, or OMP_NUM_THREADS=1 in "
    "the parent)",
    "tokio": "the runtime's threads were started before fork(); the child inherited its state but not its threads",
}
"""Why they are missing, and what to do, by runtime."""


def word(fact: ForkFact) -> str:
    """The sentence of one fact."""
    match fact:
        case ForkNoExec(pid, parent, same_program):
            same = " (same program and arguments)" if same_program else ""
            return f"process {pid} is a fork of process {parent} that never exec'd{same}, and has one thread"
        case LibraryWait(tid, waits, lib, called_from):
            return f"thread {tid} waits in {waits} inside {lib}" + (
                f", called from {called_from}" if called_from else ""
            )
        case ParentLibraryThreads(count, lib, comms):
            return (
                f"in the parent, {count} thread(s) started by {lib} ({', '.join(comms[:4])}) run that "
                "library's work; fork() copied none of them, so nothing in the child will ever do it"
            )
        case RearmedWait(wakeups):
            return (
                f"{wakeups} wake-up(s) over the window with no CPU to speak of: a timed wait that the "
                "library re-arms, not one about to end"
            )
        case UntimedWait():
            return "an untimed wait: only those threads could end it"
        case InPrepareHandler(tid, handler, lib, waits):
            return (
                f"thread {tid} is inside fork(), in a prepare handler ({handler}"
                + (f" -> {lib}" if lib else "")
                + f"), and waits in {waits}"
            )
        case OwnWaitsOnly(count, waits):
            return (
                f"the {count} other thread(s) wait only on this process's own descriptors, locks or timers "
                f"({', '.join(f'{tid} in {w}' for tid, w in waits)}): nothing outside the "
                "process will make them do what the handler waits for"
            )
        case HandlerRearms():
            return "no byte moved and no CPU was used over the window: the handler re-arms its wait, forever"
        case LibrarySpin(tid, lib, loop, cpu_s, window_s, looks):
            return (
                f"thread {tid} spins in {lib} ({loop}): {cpu_s:.2f} CPU-s over {window_s:.2f}s, no byte moved, "
                f"the same stack at {looks} looks: a pool's spin-wait for its workers"
            )
        case ParentSpinWorkers(count, lib):
            return f"in the parent, {count} thread(s) started by {lib} are those workers; fork() copied none of them"
        case PrepareHandlerSpin(tid, handler, loop, cpu_s, looks):
            return (
                f"thread {tid} is inside fork(), in a prepare handler ({handler}), and spins in "
                f"{loop}: {cpu_s:.2f} CPU-s, no byte moved, the same stack at {looks} looks"
            )
        case OthersWaitInside(count):
            return (
                f"the {count} other thread(s) wait on locks, timers or this process's own descriptors: nothing will "
                "make them do what the handler waits for"
            )
        case ConditionOnlyParent(tid, at):
            return (
                f"thread {tid} waits on a condition at {at} (a future's result, an event): "
                "only another thread could set it, and fork() copied none (the thread pool, or whatever was to "
                "answer, runs only in the parent)"
            )
        case LockHeldAtFork(tid, at):
            return (
                f"thread {tid} waits to acquire a lock at {at}, and no thread in this process "
                "can release it: it was held at fork() time by a thread of the parent, which fork() does not copy"
            )
        case InsideFork(tid, handler, addr, at):
            how = (
                f"its stack runs the child's at-fork handlers ({handler})"
                if handler is not None
                else "its interpreter still lists the parent's threads"
            )
            return f"thread {tid} has not returned from fork(): {how}, and it waits on a lock (futex {addr:#x}) at {at}"
        case LockHolderNotCopied(threads):
            return (
                f"the process has {threads} thread(s): the lock's holder was a thread of the parent, which "
                "fork() does not copy"
            )
        case ForeignThreadStates(tids):
            return (
                f"py-spy lists interpreter threads {', '.join(map(str, tids[:6]))} that do not exist "
                "here: the interpreter still holds its parent's thread states (it has not finished the fork)"
            )
        case RuntimeWorkersMissing(tid, where, runtime, threads):
            return (
                f"thread {tid} waits in {where} for {RUNTIME_WAITED[runtime]} (the process has {threads} OS "
                "thread(s), the native stacks of all of them)"
            )
        case RuntimeNotForked(runtime):
            return RUNTIME_NOT_FORKED[runtime]
        case _:
            assert_never(fact)
