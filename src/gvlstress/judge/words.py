"""Evidence worded: each kind of fact (`model.evidence`) -> the sentence a report shows, in
one place, so a wording change is one edit and rules are tested on their facts."""

from __future__ import annotations

from typing import assert_never

from gvlstress.judge.frames import span
from gvlstress.model.evidence import (
    BatchesBefore,
    BurntNoProgress,
    Busiest,
    ChainStep,
    ConditionOnlyParent,
    Crashed,
    Fact,
    ForeignThreadStates,
    ForkNoExec,
    FutexWaiters,
    GilAcrossLatch,
    GilFree,
    GilHeld,
    GilHolderOnNativeLock,
    GilUnknown,
    GilWaiters,
    HandlerRearms,
    HeldByWaiters,
    HolderAmongGilWaiters,
    HolderWaitsJobs,
    IdleByDesign,
    InPrepareHandler,
    InsideFork,
    LibrarySpin,
    LibraryWait,
    LockHeldAtFork,
    LockHolderNotCopied,
    ManagerStack,
    ManagerWaitsFrame,
    MutexGroups,
    NoIdlePoolThread,
    Note,
    OffFutex,
    OneMutexWaiters,
    OthersWaitInside,
    OwnWaitsOnly,
    ParentLibraryThreads,
    ParentSpinWorkers,
    Parked,
    PoolAllBlocked,
    PoolWaitsGil,
    PrepareHandlerSpin,
    ProcSaid,
    Raised,
    RaisedAfter,
    RearmedWait,
    ResultLockOfDead,
    RuntimeNotForked,
    RuntimeWorkersMissing,
    StderrCause,
    StillAtWork,
    ThreadUsed,
    UnreapedZombie,
    UntimedWait,
    WaitsForPool,
    WorkerDied,
)
from gvlstress.system.proctree import signal_name

IDLE_SHOWN = 6
"""Idle-by-design threads named in one line; the rest are left out."""

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


def _tids(ids: tuple[int, ...]) -> str:
    """Thread ids for the reader: the first six, and how many in all."""
    return ", ".join(map(str, ids[:6])) + (f", ... ({len(ids)} in all)" if len(ids) > 6 else "")


def _plural(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n > 1 else ''}"


def word(fact: Fact) -> str:
    """The sentence of one fact."""
    match fact:
        case Note(text) | ChainStep(text):
            return text
        case Parked(parked, threads, cpu_s, window_s, progress):
            return (
                f"{parked}/{threads} threads asleep with no CPU; "
                f"{cpu_s:.2f} CPU-s used by all threads over {window_s:.2f}s; {progress}"
            )
        case FutexWaiters(addr, tids, roles, blocked_in):
            who = ", ".join(roles) or _plural(len(tids), "thread")
            return f"futex {addr:#x}: {who} (tids {span(tids)}) wait in {blocked_in}"
        case OffFutex(tid, comm, state, at):
            return f"thread {tid} ({comm}) {state}, not on a futex: {at}"
        case IdleByDesign(threads):
            return f"idle by design (not evidence): {'; '.join(threads[:IDLE_SHOWN])}"
        case GilHeld(tid, where):
            return f"GIL held by thread {tid} ({where})"
        case GilFree():
            return "no thread holds the GIL"
        case GilUnknown():
            return "GIL owner unknown (py-spy view missing)"
        case Busiest(threads):
            return "busiest threads: " + ", ".join(f"{tid} {cpu_s:.2f}s" for tid, cpu_s in threads)
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
        case WorkerDied(pid, died, killed_by, sending):
            return f"worker {pid} died ({died}{', ' + killed_by if killed_by else ''}) " + (
                "after it had finished its share, i.e. while pickling or sending its result"
                if sending
                else ""
            )
        case UnreapedZombie(wedge_s):
            return (
                f"it is a zombie: the executor never reaped it, never raised BrokenProcessPool, and for {wedge_s:g}s "
                "and more its task's future stayed pending"
            )
        case ManagerWaitsFrame():
            return (
                "the executor's manager thread (in the parent) waits for the rest of a result frame that will "
                "never come: the pipe's write ends stay open in the parent and the other workers, so no EOF"
            )
        case ManagerStack(frames):
            return "the manager thread is in " + " > ".join(frames)
        case ResultLockOfDead(pid):
            return (
                f"this worker finished its share and waits to send its result on the result queue's lock, held by "
                f"the dead worker {pid}: a lock in shared memory whose holder is gone"
            )
        case StillAtWork():
            return (
                "this worker was still at work when the wedge was found: whatever it returned, its future "
                "stays pending behind the same wedge (the executor collects no result any more)"
            )
        case ProcSaid(reason):
            return f"/proc: {reason}"
        case Crashed(line, exit_code, signal):
            return f"{line}; exit code {exit_code}, signal {signal_name(signal)}"
        case BatchesBefore(batches):
            return f"{batches} batch(es) completed before it died"
        case StderrCause(name, line):
            return f"{name}, from its stderr: {line}"
        case Raised(raised, workers, clean):
            return f"{raised} of {workers} workers raised; {clean} finished cleanly with the same code"
        case RaisedAfter(batches, last):
            return f"raised after {batches} batch(es): {last}"
        case GilAcrossLatch(tid, role, seen, latch):
            how = "py-spy: owns_gil" if seen else "inferred: py-spy view missing"
            return f"thread {tid} ({role}) holds the GIL ({how}) and waits in {latch} for its rayon jobs"
        case PoolWaitsGil(tids, where):
            return f"{len(tids)} rayon pool thread(s) ({_tids(tids)}) inside those jobs wait for the GIL in {where}"
        case MutexGroups(groups):
            return f"threads wait on {len(groups)} different mutexes: " + "; ".join(
                f"{addr:#x}: {len(ts)} thread(s) ({_tids(ts)})" for addr, ts in groups
            )
        case HeldByWaiters():
            return (
                "each mutex is held by a thread that is itself waiting for another one of them "
                "(no thread outside these groups can release them)"
            )
        case OneMutexWaiters(tids, addr, where):
            return f"{len(tids)} thread(s) ({_tids(tids)}) wait for one mutex at {addr:#x} in {where}"
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
            return f"{len(tids)} thread(s) ({_tids(tids)}) wait for the GIL in {where}" + (
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


def evidence(facts: tuple[Fact, ...]) -> tuple[str, ...]:
    """The sentences of facts, in their order."""
    return tuple(word(f) for f in facts)
