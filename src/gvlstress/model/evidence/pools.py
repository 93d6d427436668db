"""Facts of pools and queues between processes (`judge.pools`, `judge.queues`,
`judge.taskpools`): a result that can never arrive, a lost task, a pool that respawns dying
workers, a queue item its feeder dropped, a shared lock or semaphore whose holder died."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MainAwaitsResult:
    """The main thread waits for a result of its pool (`what`), at a line if known."""

    what: str
    at: str | None


@dataclass(frozen=True)
class ResultThreadDied:
    """The pool's thread that delivers results (`reader`) does not exist: it died."""

    what: str
    reader: str


@dataclass(frozen=True)
class NoOtherSetsIt:
    """No other thread sets the result (`busy`: how many others use how much CPU, if they do)."""

    busy: tuple[int, float] | None


@dataclass(frozen=True)
class ReaderWaitsOwnPool:
    """The pool's result thread waits, inside a callback it runs, for a result of its own pool."""

    what: str
    reader: str
    tid: int
    at: str | None


@dataclass(frozen=True)
class OnlyDeliverer:
    """It is the only thread that delivers the pool's results."""


@dataclass(frozen=True)
class WorkersWaitTask:
    """Every worker process waits for a task, at every look (none: no worker is left)."""

    workers: tuple[int, ...]


@dataclass(frozen=True)
class NothingInFlight:
    """No byte waits between the launcher and its workers, and nothing is left to hand out."""


@dataclass(frozen=True)
class WorkersReplaced:
    """Workers started after the first: the pool replaced one that exited holding the task."""

    pids: tuple[int, ...]
    after_s: float


@dataclass(frozen=True)
class DeadChildren:
    """Dead, unreaped children."""

    pids: tuple[int, ...]


@dataclass(frozen=True)
class WorkersChurn:
    """Over the window the pool's workers kept changing (and the exit codes of the dead caught)."""

    seconds: float
    born: tuple[int, ...]
    gone: int
    codes: tuple[int, ...]


@dataclass(frozen=True)
class NothingDelivered:
    """The pool's result handler read nothing: each worker died before it delivered anything."""


@dataclass(frozen=True)
class BehindWorkers:
    """The main thread waits for its pool's results; workers holding its tasks are hung themselves."""

    hung: tuple[int, ...]
    state: str
    reason: str


@dataclass(frozen=True)
class NativePoolAlone:
    """The only worker of a native pool is inside a task blocked on a future queued behind it."""

    tid: int
    pool: str
    future: str


@dataclass(frozen=True)
class NativePoolAll:
    """All workers of a native pool are inside tasks blocked on futures."""

    tids: tuple[int, ...]
    pool: str
    future: str


@dataclass(frozen=True)
class NoIdleWorker:
    """No worker of the pool waits idle in its loop."""


@dataclass(frozen=True)
class QueueReadsEmpty:
    """A process reads its queue's pipe for the next item, and no byte waits there."""

    pid: int
    pipe: str


@dataclass(frozen=True)
class FeederKeptObject:
    """The writer's queue feeder thread is idle with its last item still an object: pickling failed."""

    pid: int
    tid: int
    value: str


@dataclass(frozen=True)
class PutReturned:
    """put() had returned long before: the producer thinks it answered."""


@dataclass(frozen=True)
class CycleWithConsumer:
    """A process of the pipe cycle a dropped item makes (its own reason)."""

    reason: str


@dataclass(frozen=True)
class QueueLockWait:
    """A thread waits, untimed, for a multiprocessing queue's read lock (a semaphore in shared memory)."""

    tid: int
    path: str
    count: int | None
    mappers: tuple[int, ...]


@dataclass(frozen=True)
class BytesUnread:
    """Bytes wait in the pipe the lock guards; no live process reads it; these wait for the lock."""

    count: int
    pipes: tuple[str, ...]
    waiters: tuple[int, ...]


@dataclass(frozen=True)
class HolderNotLiving:
    """A semaphore has no owner: the process that took it last is not among the living."""


@dataclass(frozen=True)
class DeadLeftUnreaped:
    """Dead children left unreaped (worded: '812 (SIGKILL)')."""

    dead: str


@dataclass(frozen=True)
class StartedAfterSiblings:
    """Workers started after their siblings: replacements."""

    pids: tuple[int, ...]


@dataclass(frozen=True)
class SysvSemWait:
    """A thread waits, untimed, on a System V semaphore (`detail`)."""

    tid: int
    detail: str


@dataclass(frozen=True)
class SysvTakerExited:
    """The semaphore is at 0 and its last operator has exited."""

    pid: int


@dataclass(frozen=True)
class OrphanSemWait:
    """A thread waits, untimed, on a multiprocessing semaphore in shared memory."""

    tid: int
    path: str
    count: int | None


@dataclass(frozen=True)
class NoOtherMapper:
    """No other process maps it, and every other thread of this one waits on a lock."""


PoolFact = (
    MainAwaitsResult
    | ResultThreadDied
    | NoOtherSetsIt
    | ReaderWaitsOwnPool
    | OnlyDeliverer
    | WorkersWaitTask
    | NothingInFlight
    | WorkersReplaced
    | DeadChildren
    | WorkersChurn
    | NothingDelivered
    | BehindWorkers
    | NativePoolAlone
    | NativePoolAll
    | NoIdleWorker
    | QueueReadsEmpty
    | FeederKeptObject
    | PutReturned
    | CycleWithConsumer
    | QueueLockWait
    | BytesUnread
    | HolderNotLiving
    | DeadLeftUnreaped
    | StartedAfterSiblings
    | SysvSemWait
    | SysvTakerExited
    | OrphanSemWait
    | NoOtherMapper
)
"""Every fact of a pool or a queue between processes (`judge.words.pools` words each one)."""
