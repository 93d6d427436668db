"""Evidence as facts: what a rule or the explanation found, held as its objects (tids,
addresses, pids, frames), never as prose; `judge.words` words each kind in one place.

A frame or a wait is held as the label the judge reads it by (``where``: 'Mutex::lock_contended
(mutex.rs:12)', ``waits``: 'futex 0x7f1c (no timeout)'): those labels are objects of the
capture, not sentences. `Note` is free text that no rule or test reads (rules not typed yet);
keep it rare. Every kind is importable from here; `Fact` is their union.

Modules (one line each, from their docstrings):

- `cycles`: Facts of waits across processes (`judge.cycles`, `judge.tree`, `judge.semcycle`): a
  cycle of waits, a party that waits forever, a process that...
- `explained`: Facts every explanation shows (`judge.explain`): parked threads, futex groups,
  threads off a futex, idle-by-design threads, the GIL, the busiest...
- `forks`: Facts of fork hangs: a fork that never exec'd, the library or runtime whose threads
  stayed in the parent, a prepare handler waiting or spinning...
- `locks`: Facts of the shapes one process's stacks show (`judge.patterns`): the GIL held across
  a rayon region, mutexes waited on in a cycle or across a...
- `pythons`: Facts of the shapes Python stacks show (`judge.pyshapes`, `judge.pystack`): a lock
  taken in a signal handler or under its own caller, a blocked...
- `waves`: Facts of a wave's failures (`judge.outcome`): a crash, an error, an executor wedged
  by a worker that died.
"""

from __future__ import annotations

from dataclasses import dataclass

from gvlstress.model.evidence.cycles import (
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
    OnlySelfCanEnd,
    ParentAwaitsExit,
    PartyWait,
    PipeCycleAll,
    PipeStep,
    ReadsOnlyFrom,
    ResultLockDead,
    SemDeadMapper,
    SemNoOwner,
    SemWait,
    WaitsForever,
    WaitsForFdWaiter,
    WorkerAwaitsSend,
    WriteEndsOpen,
)
from gvlstress.model.evidence.explained import (
    Busiest,
    ExplainedFact,
    FutexWaiters,
    GilFree,
    GilHeld,
    GilUnknown,
    IdleByDesign,
    OffFutex,
    Parked,
)
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
from gvlstress.model.evidence.waves import (
    BatchesBefore,
    Crashed,
    ManagerStack,
    ManagerWaitsFrame,
    ProcSaid,
    Raised,
    RaisedAfter,
    ResultLockOfDead,
    StderrCause,
    StillAtWork,
    UnreapedZombie,
    WaveFact,
    WorkerDied,
)


@dataclass(frozen=True)
class Note:
    """Free text: a line no rule or test reads as a fact."""

    text: str


@dataclass(frozen=True)
class ChainStep:
    """One step of the wait chain as the /proc judge followed it (`ProbeFinding.chain`)."""

    text: str


Fact = Note | ChainStep | ExplainedFact | ForkFact | LockFact | WaveFact | PythonFact | CycleFact
"""Every kind of fact a diagnosis or a rule's match carries (`judge.words` words each one)."""


def notes(*lines: str) -> tuple[Note, ...]:
    """Lines of a rule not typed yet, as `Note` facts."""
    return tuple(Note(line) for line in lines)


__all__ = [
    "AcquiresLock",
    "BatchesBefore",
    "BlockedBeside",
    "BurntNoProgress",
    "Busiest",
    "ChainStep",
    "ChildPipeFull",
    "ChildrenExited",
    "ConditionOnlyParent",
    "ConditionWait",
    "ConsumersWaitItems",
    "Crashed",
    "CycleFact",
    "CycleParked",
    "DeadUnreaped",
    "ExitJoins",
    "ExplainedFact",
    "Fact",
    "FdWaiterBehindLock",
    "ForeignThreadStates",
    "ForkFact",
    "ForkNoExec",
    "FutexWaiters",
    "GilAcrossLatch",
    "GilFree",
    "GilHeld",
    "GilHolderOnNativeLock",
    "GilUnknown",
    "GilWaiters",
    "HandlerAcquires",
    "HandlerInterrupted",
    "HandlerRearms",
    "HeldAcrossWait",
    "HeldByWaiters",
    "HolderAmongGilWaiters",
    "HolderWaitsJobs",
    "HoldsOtherEnd",
    "IdleByDesign",
    "ImportLockHolder",
    "ImportLockWait",
    "InPrepareHandler",
    "InsideFork",
    "JoinCycle",
    "JoinerAmong",
    "JoinerWaitsWakeup",
    "JoinsBlockedChild",
    "LibrarySpin",
    "LibraryWait",
    "LockFact",
    "LockHeldAtFork",
    "LockHolderNotCopied",
    "LoopBlocks",
    "LoopStalled",
    "MainAwaitsPool",
    "ManagerInFrame",
    "ManagerStack",
    "ManagerWaitsFrame",
    "MutexGroups",
    "NeverEnd",
    "NoConsumer",
    "NoFreeWorker",
    "NoIdlePoolThread",
    "NoReaderReads",
    "NoThreadLeft",
    "NobodyNotifies",
    "Note",
    "OffFutex",
    "OneMutexWaiters",
    "OnlyHolderWaitsPool",
    "OnlySelfCanEnd",
    "OthersBlocked",
    "OthersWaitInside",
    "OwnWaitsOnly",
    "ParentAwaitsExit",
    "ParentLibraryThreads",
    "ParentSpinWorkers",
    "Parked",
    "PartyWait",
    "PipeCycleAll",
    "PipeStep",
    "PoolAllBlocked",
    "PoolTasksWaitFutures",
    "PoolTasksWaitLock",
    "PoolWaitsGil",
    "PrepareHandlerSpin",
    "ProcSaid",
    "PyLockAcquirer",
    "PyLockWaiters",
    "PythonFact",
    "QueueJoinWaits",
    "Raised",
    "RaisedAfter",
    "ReadsOnlyFrom",
    "RearmedWait",
    "ReenteredThrough",
    "ResultLockDead",
    "ResultLockOfDead",
    "RuntimeNotForked",
    "RuntimeWorkersMissing",
    "SelfWait",
    "SemDeadMapper",
    "SemNoOwner",
    "SemWait",
    "StderrCause",
    "StillAtWork",
    "ThreadJoins",
    "ThreadUsed",
    "UnreapedZombie",
    "UntimedWait",
    "WaitsForFdWaiter",
    "WaitsForOneOfThem",
    "WaitsForPool",
    "WaitsForever",
    "WaveFact",
    "WorkerAwaitsSend",
    "WorkerDied",
    "WriteEndsOpen",
    "notes",
]
