"""Facts of native waits (`judge.finalize`, `judge.mutexes`, `judge.spins`): a wait at
interpreter exit, a pthread mutex relocked, copied by fork(), locked in a ring or left by a
thread that exited, the GIL's holder spinning for threads that need the GIL."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MainFinalizing:
    """The main thread is at exit with no Python frame: in Py_FinalizeEx's `stage`, or past it in
    libc's exit handlers (`past`)."""

    pid: int
    stage: str
    past: bool


@dataclass(frozen=True)
class DestructorWaits:
    """A destructor (if named) or the main thread joins a thread (the only other one, if so) in a
    frame, or waits at `at`, on a futex."""

    freeing: str | None
    joins: bool
    joined: tuple[int, str] | None
    at: str
    addr: int


@dataclass(frozen=True)
class EndersWait:
    """The threads that could end it, (tid, comm, where), wait themselves."""

    threads: tuple[tuple[int, str, str], ...]


@dataclass(frozen=True)
class NoEnderLeft:
    """No other thread is left to end that wait."""


@dataclass(frozen=True)
class MainTearingDown:
    """The main thread is in Py_FinalizeEx's `stage`, past the point other threads may run Python."""

    pid: int
    stage: str


@dataclass(frozen=True)
class FinalizerWaitsLock:
    """Python code run from there waits, untimed, for a Python lock (in a frame, on a futex)."""

    at: str
    addr: int


@dataclass(frozen=True)
class NoPythonThreadRuns:
    """Only another Python thread could release it, and none runs again (native threads left)."""

    natives: int


@dataclass(frozen=True)
class RelocksOwnMutex:
    """A thread (`who`) waits for a pthread mutex whose owner field names itself."""

    who: str
    addr: int


@dataclass(frozen=True)
class NotRecursive:
    """A mutex that is not recursive never grants a second lock to its owner."""


@dataclass(frozen=True)
class ForeignOwnerMutex:
    """A thread waits for a process-private mutex whose owner is a thread of another process."""

    who: str
    addr: int
    owner: int | None
    owner_pid: int | None


@dataclass(frozen=True)
class PrivateMutexCopied:
    """The private mutex is a copy fork() made while its holder held it."""


@dataclass(frozen=True)
class MutexHeldBy:
    """A thread waits for a pthread mutex held by another thread."""

    who: str
    addr: int
    owner: int | None


@dataclass(frozen=True)
class MutexRing:
    """Each holder waits for the next one's mutex, round to the first."""


@dataclass(frozen=True)
class MutexOwnerGone:
    """A thread waits for a mutex whose owner thread exists no more."""

    who: str
    addr: int
    owner: int | None


@dataclass(frozen=True)
class OnlyOwnerUnlocks:
    """A mutex is unlocked only by the thread that locked it."""


@dataclass(frozen=True)
class GilHolderSpins:
    """The GIL's holder spins in a library's loop at every look (called from a Python line, if seen)."""

    tid: int
    role: str
    lib: str
    loop: str
    cpu_s: float
    looks: int
    called_from: str | None


@dataclass(frozen=True)
class LibThreadsWaitGil:
    """Threads the library started wait for the GIL (in a frame)."""

    tids: tuple[int, ...]
    lib: str
    at: str


NativeFact = (
    MainFinalizing
    | DestructorWaits
    | EndersWait
    | NoEnderLeft
    | MainTearingDown
    | FinalizerWaitsLock
    | NoPythonThreadRuns
    | RelocksOwnMutex
    | NotRecursive
    | ForeignOwnerMutex
    | PrivateMutexCopied
    | MutexHeldBy
    | MutexRing
    | MutexOwnerGone
    | OnlyOwnerUnlocks
    | GilHolderSpins
    | LibThreadsWaitGil
)
"""Every fact of a native wait (`judge.words.natives` words each one)."""
