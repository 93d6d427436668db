"""Facts of fork hangs: a fork that never exec'd, the library or runtime whose threads stayed in
the parent, a prepare handler waiting or spinning inside fork()."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ForkNoExec:
    """This process is a fork of its parent that never exec'd, and has one thread (`same_program`:
    the Python view says so, same program and arguments)."""

    pid: int
    parent: int
    same_program: bool = False


@dataclass(frozen=True)
class LibraryWait:
    """A forked child's only thread waits inside a library (called from a Python line, if seen)."""

    tid: int
    waits: str
    lib: str
    called_from: str | None


@dataclass(frozen=True)
class ParentLibraryThreads:
    """In the parent, threads the library started (their names): the child has none of them."""

    count: int
    lib: str
    comms: tuple[str, ...]


@dataclass(frozen=True)
class RearmedWait:
    """The child's wait woke this many times with no CPU to speak of: a timed wait re-armed."""

    wakeups: int


@dataclass(frozen=True)
class UntimedWait:
    """The child's wait is untimed: only the threads fork() did not copy could end it."""


@dataclass(frozen=True)
class InPrepareHandler:
    """A thread inside fork(), in an at-fork prepare handler (the frame, the library below it),
    waiting."""

    tid: int
    handler: str
    lib: str | None
    waits: str


@dataclass(frozen=True)
class OwnWaitsOnly:
    """The other threads (how many; a few as (tid, wait)) wait only on the process's own
    descriptors, locks or timers."""

    count: int
    waits: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class HandlerRearms:
    """No byte moved and no CPU was used: the handler re-arms its wait."""


@dataclass(frozen=True)
class LibrarySpin:
    """A forked child's only thread spins in a library: the loop, its CPU over the window, the
    looks that saw one stack."""

    tid: int
    lib: str
    loop: str
    cpu_s: float
    window_s: float
    looks: int


@dataclass(frozen=True)
class ParentSpinWorkers:
    """In the parent, the threads the spinning library started: its workers, none copied."""

    count: int
    lib: str


@dataclass(frozen=True)
class PrepareHandlerSpin:
    """A thread inside fork(), in a prepare handler, spinning in one loop at every look."""

    tid: int
    handler: str
    loop: str
    cpu_s: float
    looks: int


@dataclass(frozen=True)
class OthersWaitInside:
    """The other threads (how many) wait on locks, timers or the process's own descriptors."""

    count: int


@dataclass(frozen=True)
class ConditionOnlyParent:
    """A forked child's thread waits on a condition (a future, an event) only a parent's thread
    could set."""

    tid: int
    at: str


@dataclass(frozen=True)
class LockHeldAtFork:
    """A forked child's thread waits for a lock a parent's thread held at fork() time."""

    tid: int
    at: str


@dataclass(frozen=True)
class InsideFork:
    """A thread that has not returned from fork(): in the child's at-fork handlers (`handler`)
    or, with no native view, an interpreter still listing the parent's threads; it waits on a
    lock at a line."""

    tid: int
    handler: str | None
    addr: int
    at: str


@dataclass(frozen=True)
class LockHolderNotCopied:
    """The process has this many threads: the lock's holder was a thread of the parent."""

    threads: int


@dataclass(frozen=True)
class ForeignThreadStates:
    """py-spy lists interpreter threads that do not exist here: the fork has not finished."""

    tids: tuple[int, ...]


@dataclass(frozen=True)
class RuntimeWorkersMissing:
    """A thread waits for a runtime's workers (`runtime`: rayon, OpenMP, tokio) and the process,
    every native stack of which was seen, has none."""

    tid: int
    where: str
    runtime: str
    threads: int


@dataclass(frozen=True)
class RuntimeNotForked:
    """Why the runtime's workers are missing: they were started before fork()."""

    runtime: str


ForkFact = (
    ForkNoExec
    | LibraryWait
    | ParentLibraryThreads
    | RearmedWait
    | UntimedWait
    | InPrepareHandler
    | OwnWaitsOnly
    | HandlerRearms
    | LibrarySpin
    | ParentSpinWorkers
    | PrepareHandlerSpin
    | OthersWaitInside
    | ConditionOnlyParent
    | LockHeldAtFork
    | InsideFork
    | LockHolderNotCopied
    | ForeignThreadStates
    | RuntimeWorkersMissing
    | RuntimeNotForked
)
"""Every fact of a fork hang (`judge.words.forks` words each one)."""
