"""Facts of the shapes one process's stacks show (`judge.patterns`): the GIL held across a
rayon region, mutexes waited on in a cycle or across a parallel region, a pool exhausted, the GIL
against a native lock, a burn with no progress."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GilAcrossLatch:
    """A thread holds the GIL (`seen`: py-spy says so; else inferred) and waits for its rayon jobs."""

    tid: int
    role: str
    seen: bool
    latch: str


@dataclass(frozen=True)
class PoolWaitsGil:
    """Rayon pool threads inside those jobs wait for the GIL."""

    tids: tuple[int, ...]
    where: str


@dataclass(frozen=True)
class MutexGroups:
    """Threads wait on several mutexes, as (address, waiting tids), most waiters first."""

    groups: tuple[tuple[int, tuple[int, ...]], ...]


@dataclass(frozen=True)
class HeldByWaiters:
    """Each mutex is held by a thread waiting for another of them."""


@dataclass(frozen=True)
class OneMutexWaiters:
    """Threads wait for one mutex, in one frame."""

    tids: tuple[int, ...]
    addr: int
    where: str


@dataclass(frozen=True)
class HolderWaitsJobs:
    """A thread that does not wait for the mutex waits for the very jobs that do: it holds it."""

    tid: int
    role: str
    latch: str


@dataclass(frozen=True)
class PoolAllBlocked:
    """Every rayon pool thread is inside a job, blocked (how many of them in channel operations)."""

    pool: int
    what: str
    in_channel: int


@dataclass(frozen=True)
class NoIdlePoolThread:
    """No pool thread is idle in rayon's sleep: the job that would unblock them never runs."""


@dataclass(frozen=True)
class WaitsForPool:
    """A thread waits for the pool."""

    tid: int
    latch: str


@dataclass(frozen=True)
class GilHolderOnNativeLock:
    """The GIL's holder waits on a native lock (at a frame, called from a Python line if seen)."""

    tid: int
    role: str
    addr: int
    at: str
    called_from: str | None


@dataclass(frozen=True)
class GilWaiters:
    """Threads wait for the GIL (one of them at a Python line, if seen)."""

    tids: tuple[int, ...]
    where: str
    example: tuple[int, str] | None


@dataclass(frozen=True)
class HolderAmongGilWaiters:
    """The native lock's holder can only be one of the GIL's waiters."""


@dataclass(frozen=True)
class BurntNoProgress:
    """CPU burnt over the window with no progress."""

    cpu_s: float
    window_s: float


@dataclass(frozen=True)
class ThreadUsed:
    """CPU a thread used over the window, and where it is (if its stack was seen)."""

    tid: int
    cpu_s: float
    where: str | None


LockFact = (
    GilAcrossLatch
    | PoolWaitsGil
    | MutexGroups
    | HeldByWaiters
    | OneMutexWaiters
    | HolderWaitsJobs
    | PoolAllBlocked
    | NoIdlePoolThread
    | WaitsForPool
    | GilHolderOnNativeLock
    | GilWaiters
    | HolderAmongGilWaiters
    | BurntNoProgress
    | ThreadUsed
)
"""Every fact of a shape of one process's stacks (`judge.words.locks` words each one)."""
