"""Facts of the shapes Python stacks show (`judge.pyshapes`, `judge.pystack`): a lock taken in a
signal handler or under its own caller, a blocked event loop, exit-time joins, Queue.join, lock
orders, joins and lost wakeups, the import lock, a thread pool exhausted or held across a lock."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HandlerAcquires:
    """A thread runs a signal handler (the dispatch frame on its stack) and waits to acquire a lock."""

    tid: int
    role: str
    dispatch: str
    at: str


@dataclass(frozen=True)
class HandlerInterrupted:
    """The handler interrupted the lock holder's own frames (some of those below it, if any)."""

    below: tuple[str, ...]


@dataclass(frozen=True)
class SelfWait:
    """A thread waits (to acquire a lock if `at` is None, else at a Condition or queue wait)
    under a function that is further down its own stack (at line `again`), or under the function
    whose return ends that wait (`ender`: socketserver's serve_forever under its shutdown())."""

    tid: int
    role: str
    at: str | None
    func: str
    file: str
    line: int | None
    again: int | None
    ender: str | None = None


@dataclass(frozen=True)
class ReenteredThrough:
    """The calls between the outer and the inner call (innermost first; none: a direct call)."""

    calls: tuple[str, ...]


@dataclass(frozen=True)
class LoopBlocks:
    """A thread running an asyncio event loop blocks, untimed."""

    tid: int
    role: str
    loop: str
    at: str


@dataclass(frozen=True)
class LoopStalled:
    """While the loop's thread blocks, none of the loop's tasks or callbacks runs."""


@dataclass(frozen=True)
class ExitJoins:
    """The main thread is in threading._shutdown, joining the non-daemon threads."""

    pid: int


@dataclass(frozen=True)
class NeverEnd:
    """The threads the exit joins, as (tid, name, at) (none left: the join waits anyway)."""

    threads: tuple[tuple[int, str | None, str], ...]


@dataclass(frozen=True)
class QueueJoinWaits:
    """A thread waits in Queue.join()."""

    tid: int
    role: str
    at: str


@dataclass(frozen=True)
class ConsumersWaitItems:
    """Consumers wait in Queue.get() for more items (the first at `at`): the queue is drained."""

    tids: tuple[int, ...]
    at: str


@dataclass(frozen=True)
class NoThreadLeft:
    """No other thread exists to call task_done()."""


@dataclass(frozen=True)
class NoConsumer:
    """No thread takes items from the queue."""


@dataclass(frozen=True)
class PyLockWaiters:
    """Python threads wait to acquire several threading locks, none releasable from outside."""

    threads: int
    locks: int


@dataclass(frozen=True)
class PyLockAcquirer:
    """One of them: its thread's name, where, and the lock's address."""

    tid: int
    name: str | None
    at: str
    addr: int


@dataclass(frozen=True)
class JoinerAmong:
    """A thread waits in join() beside them."""

    tid: int
    at: str


@dataclass(frozen=True)
class ConditionWait:
    """A thread waits in Condition/Event wait() with no timeout (`alone`: no thread is left to notify)."""

    tid: int
    role: str
    at: str
    alone: bool


@dataclass(frozen=True)
class JoinerWaitsWakeup:
    """A thread in Thread.join() that waits for the wakeup too."""

    tid: int
    role: str
    at: str


@dataclass(frozen=True)
class ThreadJoins:
    """A thread waits in Thread.join()."""

    tid: int
    at: str


@dataclass(frozen=True)
class OthersBlocked:
    """The other Python threads are blocked themselves: how many, and (tid, at) of the first ones."""

    count: int
    threads: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class JoinCycle:
    """The joined thread waits for a lock only the joiner can hold: each waits for the other."""

    tid: int
    at: str
    joiner: int


@dataclass(frozen=True)
class NobodyNotifies:
    """Threads wait on conditions; the other Python threads (if any) are blocked themselves."""

    waiters: int
    others: int


@dataclass(frozen=True)
class ImportLockWait:
    """A thread waits for a module's import lock."""

    tid: int
    role: str
    at: str


@dataclass(frozen=True)
class ImportLockHolder:
    """The thread running the module's top-level code for an import holds it, and waits."""

    tid: int
    role: str
    module: str
    at: str


@dataclass(frozen=True)
class PoolTasksWaitFutures:
    """Every thread-pool worker is inside a task that waits for a future (one of them at `at`)."""

    tids: tuple[int, ...]
    example: int
    at: str


@dataclass(frozen=True)
class NoFreeWorker:
    """No worker is free to run the tasks queued behind them."""


@dataclass(frozen=True)
class WaitsForOneOfThem:
    """A thread outside the pool waits for one of those futures."""

    tid: int
    role: str
    at: str


@dataclass(frozen=True)
class AcquiresLock:
    """The one thread that waits to acquire a plain lock (at its address, if known)."""

    tid: int
    role: str
    at: str
    addr: int | None


@dataclass(frozen=True)
class BlockedBeside:
    """A thread that joins (`joins`) or waits on a Condition, an Event or a queue."""

    tid: int
    role: str
    joins: bool
    at: str


@dataclass(frozen=True)
class HeldAcrossWait:
    """One of the blocked threads holds the lock across its wait; the acquirer alone could wake them."""

    blocked: int
    tid: int


@dataclass(frozen=True)
class PoolTasksWaitLock:
    """Busy thread-pool workers wait, inside their tasks, to acquire one lock."""

    tids: tuple[int, ...]
    addr: int
    at: str


@dataclass(frozen=True)
class OnlyHolderWaitsPool:
    """The only other thread waits for the pool's results: it holds the lock across that wait."""

    tid: int
    role: str
    at: str


PythonFact = (
    HandlerAcquires
    | HandlerInterrupted
    | SelfWait
    | ReenteredThrough
    | LoopBlocks
    | LoopStalled
    | ExitJoins
    | NeverEnd
    | QueueJoinWaits
    | ConsumersWaitItems
    | NoThreadLeft
    | NoConsumer
    | PyLockWaiters
    | PyLockAcquirer
    | JoinerAmong
    | ConditionWait
    | JoinerWaitsWakeup
    | ThreadJoins
    | OthersBlocked
    | JoinCycle
    | NobodyNotifies
    | ImportLockWait
    | ImportLockHolder
    | PoolTasksWaitFutures
    | NoFreeWorker
    | WaitsForOneOfThem
    | AcquiresLock
    | BlockedBeside
    | HeldAcrossWait
    | PoolTasksWaitLock
    | OnlyHolderWaitsPool
)
"""Every fact of a Python stack shape (`judge.words.pythons` words each one)."""
