"""Evidence as facts: what a rule or the explanation found, held as its objects (tids,
addresses, pids, frames), never as prose; `judge.words` words each kind in one place.

A frame or a wait is held as the label the judge reads it by (``where``: 'Mutex::lock_contended
(mutex.rs:12)', ``waits``: 'futex 0x7f1c (no timeout)'): those labels are objects of the
capture, not sentences. Every rule of the judge returns typed facts; `Note` is free text no
rule or test reads, for a rule added from outside (`tests/support/newrule.py`). Every kind is
importable from here; `Fact` is their union.

Modules (one line each, from their docstrings):

- `cycles`: Facts of waits across processes (`judge.cycles`, `judge.tree`, `judge.semcycle`,
  `judge.across`): a cycle of waits, a party that waits forever, a...
- `descriptors`: Facts of waits on descriptors (`judge.peers`, `judge.loops`, `judge.relock`): a
  peer that has gone or is hung itself, an event loop nothing can...
- `explained`: Facts every explanation shows (`judge.explain`): parked threads, futex groups,
  threads off a futex, idle-by-design threads, the GIL, the busiest...
- `forks`: Facts of fork hangs: a fork that never exec'd, the library or runtime whose threads
  stayed in the parent, a prepare handler waiting or spinning...
- `locks`: Facts of the shapes one process's stacks show (`judge.patterns`): the GIL held across
  a rayon region, mutexes waited on in a cycle or across a...
- `natives`: Facts of native waits (`judge.finalize`, `judge.mutexes`, `judge.spins`): a wait at
  interpreter exit, a pthread mutex relocked, copied by fork()...
- `pools`: Facts of pools and queues between processes (`judge.pools`, `judge.queues`,
  `judge.taskpools`): a result that can never arrive, a lost task, a...
- `pythons`: Facts of the shapes Python stacks show (`judge.pyshapes`, `judge.pystack`): a lock
  taken in a signal handler or under its own caller, a blocked...
- `waves`: Facts of a wave's failures (`judge.outcome`): a crash, an error, an executor wedged
  by a worker that died.
"""

from __future__ import annotations

from dataclasses import dataclass

# each kind re-exported as 'X as X', one statement per family
# isort: off
from gvlstress.model.evidence.cycles import (
    ChildDeadlocked as ChildDeadlocked,
    ChildPipeFull as ChildPipeFull,
    ChildrenExited as ChildrenExited,
    CycleFact as CycleFact,
    CycleParked as CycleParked,
    DeadUnreaped as DeadUnreaped,
    FdWaiterBehindLock as FdWaiterBehindLock,
    HoldsOtherEnd as HoldsOtherEnd,
    JoinsBlockedChild as JoinsBlockedChild,
    MainAwaitsPool as MainAwaitsPool,
    ManagerInFrame as ManagerInFrame,
    NoReaderReads as NoReaderReads,
    NotToldOfStops as NotToldOfStops,
    OnlySelfCanEnd as OnlySelfCanEnd,
    ParentAwaitsExit as ParentAwaitsExit,
    PartyWait as PartyWait,
    PipeCycleAll as PipeCycleAll,
    PipeStep as PipeStep,
    QuietOverHang as QuietOverHang,
    ReadsOnlyFrom as ReadsOnlyFrom,
    ResultLockDead as ResultLockDead,
    SemDeadMapper as SemDeadMapper,
    SemNoOwner as SemNoOwner,
    SemWait as SemWait,
    StoppedByTerminal as StoppedByTerminal,
    WaitsForever as WaitsForever,
    WaitsForFdWaiter as WaitsForFdWaiter,
    WorkerAwaitsSend as WorkerAwaitsSend,
    WriteEndsOpen as WriteEndsOpen,
    WritersDeadlocked as WritersDeadlocked,
)
from gvlstress.model.evidence.explained import (
    Busiest as Busiest,
    ExplainedFact as ExplainedFact,
    FutexWaiters as FutexWaiters,
    GilFree as GilFree,
    GilHeld as GilHeld,
    GilUnknown as GilUnknown,
    IdleByDesign as IdleByDesign,
    OffFutex as OffFutex,
    Parked as Parked,
)
from gvlstress.model.evidence.forks import (
    ConditionOnlyParent as ConditionOnlyParent,
    ForeignThreadStates as ForeignThreadStates,
    ForkFact as ForkFact,
    ForkNoExec as ForkNoExec,
    HandlerRearms as HandlerRearms,
    InPrepareHandler as InPrepareHandler,
    InsideFork as InsideFork,
    LibrarySpin as LibrarySpin,
    LibraryWait as LibraryWait,
    LockHeldAtFork as LockHeldAtFork,
    LockHolderNotCopied as LockHolderNotCopied,
    OthersWaitInside as OthersWaitInside,
    OwnWaitsOnly as OwnWaitsOnly,
    ParentLibraryThreads as ParentLibraryThreads,
    ParentSpinWorkers as ParentSpinWorkers,
    PrepareHandlerSpin as PrepareHandlerSpin,
    RearmedWait as RearmedWait,
    RuntimeNotForked as RuntimeNotForked,
    RuntimeWorkersMissing as RuntimeWorkersMissing,
    UntimedWait as UntimedWait,
)
from gvlstress.model.evidence.locks import (
    BurntNoProgress as BurntNoProgress,
    GilAcrossLatch as GilAcrossLatch,
    GilHolderOnNativeLock as GilHolderOnNativeLock,
    GilWaiters as GilWaiters,
    HeldByWaiters as HeldByWaiters,
    HolderAmongGilWaiters as HolderAmongGilWaiters,
    HolderWaitsJobs as HolderWaitsJobs,
    LockFact as LockFact,
    MutexGroups as MutexGroups,
    NoIdlePoolThread as NoIdlePoolThread,
    OneMutexWaiters as OneMutexWaiters,
    PoolAllBlocked as PoolAllBlocked,
    PoolWaitsGil as PoolWaitsGil,
    ThreadUsed as ThreadUsed,
    WaitsForPool as WaitsForPool,
)
from gvlstress.model.evidence.pythons import (
    AcquiresLock as AcquiresLock,
    BlockedBeside as BlockedBeside,
    ConditionWait as ConditionWait,
    ConsumersWaitItems as ConsumersWaitItems,
    ExitJoins as ExitJoins,
    HandlerAcquires as HandlerAcquires,
    HandlerInterrupted as HandlerInterrupted,
    HeldAcrossWait as HeldAcrossWait,
    ImportLockHolder as ImportLockHolder,
    ImportLockWait as ImportLockWait,
    JoinCycle as JoinCycle,
    JoinerAmong as JoinerAmong,
    JoinerWaitsWakeup as JoinerWaitsWakeup,
    LoopBlocks as LoopBlocks,
    LoopStalled as LoopStalled,
    NeverEnd as NeverEnd,
    NobodyNotifies as NobodyNotifies,
    NoConsumer as NoConsumer,
    NoFreeWorker as NoFreeWorker,
    NoThreadLeft as NoThreadLeft,
    OnlyHolderWaitsPool as OnlyHolderWaitsPool,
    OthersBlocked as OthersBlocked,
    PoolTasksWaitFutures as PoolTasksWaitFutures,
    PoolTasksWaitLock as PoolTasksWaitLock,
    PyLockAcquirer as PyLockAcquirer,
    PyLockWaiters as PyLockWaiters,
    PythonFact as PythonFact,
    QueueJoinWaits as QueueJoinWaits,
    ReenteredThrough as ReenteredThrough,
    SelfWait as SelfWait,
    ThreadJoins as ThreadJoins,
    WaitsForOneOfThem as WaitsForOneOfThem,
)
from gvlstress.model.evidence.waves import (
    BatchesBefore as BatchesBefore,
    Crashed as Crashed,
    ManagerStack as ManagerStack,
    ManagerWaitsFrame as ManagerWaitsFrame,
    ProcSaid as ProcSaid,
    Raised as Raised,
    RaisedAfter as RaisedAfter,
    ResultLockOfDead as ResultLockOfDead,
    StderrCause as StderrCause,
    StillAtWork as StillAtWork,
    UnreapedZombie as UnreapedZombie,
    WaveFact as WaveFact,
    WorkerDied as WorkerDied,
)
from gvlstress.model.evidence.pools import (
    PoolFact as PoolFact,
    MainAwaitsResult as MainAwaitsResult,
    ResultThreadDied as ResultThreadDied,
    NoOtherSetsIt as NoOtherSetsIt,
    ReaderWaitsOwnPool as ReaderWaitsOwnPool,
    OnlyDeliverer as OnlyDeliverer,
    WorkersWaitTask as WorkersWaitTask,
    NothingInFlight as NothingInFlight,
    WorkersReplaced as WorkersReplaced,
    DeadChildren as DeadChildren,
    WorkersChurn as WorkersChurn,
    NothingDelivered as NothingDelivered,
    BehindWorkers as BehindWorkers,
    NativePoolAlone as NativePoolAlone,
    NativePoolAll as NativePoolAll,
    NoIdleWorker as NoIdleWorker,
    QueueReadsEmpty as QueueReadsEmpty,
    FeederKeptObject as FeederKeptObject,
    PutReturned as PutReturned,
    CycleWithConsumer as CycleWithConsumer,
    QueueLockWait as QueueLockWait,
    BytesUnread as BytesUnread,
    HolderNotLiving as HolderNotLiving,
    DeadLeftUnreaped as DeadLeftUnreaped,
    StartedAfterSiblings as StartedAfterSiblings,
    SysvSemWait as SysvSemWait,
    SysvTakerExited as SysvTakerExited,
    OrphanSemWait as OrphanSemWait,
    NoOtherMapper as NoOtherMapper,
)
from gvlstress.model.evidence.descriptors import (
    DescriptorFact as DescriptorFact,
    BehindHungPeer as BehindHungPeer,
    PeerWaits as PeerWaits,
    PeerEnd as PeerEnd,
    OwnEndOnly as OwnEndOnly,
    NoHolder as NoHolder,
    AnswererGone as AnswererGone,
    InTeardown as InTeardown,
    InChannel as InChannel,
    LoopNoTimer as LoopNoTimer,
    LoopWatchesOwn as LoopWatchesOwn,
    LoopWatchesNothing as LoopWatchesNothing,
    LoopOthersForever as LoopOthersForever,
    NoWakingSignal as NoWakingSignal,
    WakeupLost as WakeupLost,
    RetriesLock as RetriesLock,
    HoldsFileLock as HoldsFileLock,
    OnlyItReleases as OnlyItReleases,
)
from gvlstress.model.evidence.natives import (
    NativeFact as NativeFact,
    MainFinalizing as MainFinalizing,
    DestructorWaits as DestructorWaits,
    EndersWait as EndersWait,
    NoEnderLeft as NoEnderLeft,
    MainTearingDown as MainTearingDown,
    FinalizerWaitsLock as FinalizerWaitsLock,
    NoPythonThreadRuns as NoPythonThreadRuns,
    RelocksOwnMutex as RelocksOwnMutex,
    NotRecursive as NotRecursive,
    ForeignOwnerMutex as ForeignOwnerMutex,
    PrivateMutexCopied as PrivateMutexCopied,
    MutexHeldBy as MutexHeldBy,
    MutexRing as MutexRing,
    MutexOwnerGone as MutexOwnerGone,
    OnlyOwnerUnlocks as OnlyOwnerUnlocks,
    GilHolderSpins as GilHolderSpins,
    LibThreadsWaitGil as LibThreadsWaitGil,
)
# isort: on


@dataclass(frozen=True)
class Note:
    """Free text: a line no rule or test reads as a fact."""

    text: str


@dataclass(frozen=True)
class ChainStep:
    """One step of the wait chain as the /proc judge followed it (`ProbeFinding.chain`)."""

    text: str


Fact = (
    Note
    | ChainStep
    | ExplainedFact
    | ForkFact
    | LockFact
    | WaveFact
    | PythonFact
    | CycleFact
    | PoolFact
    | DescriptorFact
    | NativeFact
)
"""Every kind of fact a diagnosis or a rule's match carries (`judge.words` words each one)."""


def notes(*lines: str) -> tuple[Note, ...]:
    """Free lines (a rule added from outside the judge), as `Note` facts."""
    return tuple(Note(line) for line in lines)
