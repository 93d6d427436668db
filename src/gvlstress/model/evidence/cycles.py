"""Facts of waits across processes (`judge.cycles`, `judge.tree`, `judge.semcycle`,
`judge.across`): a cycle of waits, a party that waits forever, a process that waits for itself, a
join before draining a pipe, a cycle of pipes, an executor wedged by a dead worker, a semaphore
cycle, a process blocked behind a hung child or quiet over a hang in its tree."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PartyWait:
    """A thread of a process waits (`how`) on something only those processes can end."""

    pid: int
    tid: int
    how: str
    parties: tuple[int, ...]


@dataclass(frozen=True)
class WaitsForever:
    """The process the wait depends on waits forever itself (`how`: its waits)."""

    pid: int
    comm: str
    how: str


@dataclass(frozen=True)
class OnlySelfCanEnd:
    """A thread waits (`how`) on something only its own process can end."""

    pid: int
    tid: int
    how: str


@dataclass(frozen=True)
class ChildrenExited:
    """The process's children exited: their exit cannot end its wait."""

    pids: tuple[int, ...]


@dataclass(frozen=True)
class HoldsOtherEnd:
    """The process holds the other end itself, no thread is left to act, no signal handler could."""

    pid: int
    comm: str


@dataclass(frozen=True)
class WaitsForFdWaiter:
    """The thread that must progress waits for a thread that waits on the process's own descriptor."""

    tid: int
    pid: int


@dataclass(frozen=True)
class FdWaiterBehindLock:
    """The thread that must progress waits on its own descriptor; its writers wait on a lock of its own."""

    tid: int
    pid: int


@dataclass(frozen=True)
class CycleParked:
    """Every thread of these processes is parked in a wait only they can end."""

    members: tuple[int, ...]


@dataclass(frozen=True)
class ParentAwaitsExit:
    """A parent waits (`detail`) for a child to exit."""

    pid: int
    detail: str
    child: int


@dataclass(frozen=True)
class ChildPipeFull:
    """The child's thread is blocked writing a full pipe."""

    child: int
    tid: int
    detail: str


@dataclass(frozen=True)
class NoReaderReads:
    """Only these processes hold the pipe open for reading, and none of them reads it."""

    readers: tuple[int, ...]
    pipe: str


@dataclass(frozen=True)
class MainAwaitsPool:
    """The main thread waits for its ProcessPoolExecutor's results."""


@dataclass(frozen=True)
class ManagerInFrame:
    """The executor's manager thread is blocked inside a result frame, not in its poll."""

    tid: int
    detail: str


@dataclass(frozen=True)
class DeadUnreaped:
    """Dead, unreaped workers (worded: '812 (SIGKILL)'): the manager thread will never reap them."""

    dead: str


@dataclass(frozen=True)
class WriteEndsOpen:
    """The pipe's write ends stay open here and in the other workers: no EOF."""


@dataclass(frozen=True)
class WorkerAwaitsSend:
    """A worker of the launcher's executor finished its task and waits to send the result."""

    launcher: int


@dataclass(frozen=True)
class ResultLockDead:
    """The result queue's lock is held by dead workers (worded: '812 (SIGKILL)')."""

    dead: str


@dataclass(frozen=True)
class PipeStep:
    """A process waits (`how`: a read or a full write on a pipe) for the next one."""

    pid: int
    how: str
    other: int


@dataclass(frozen=True)
class PipeCycleAll:
    """Each of the processes waits for the next."""

    count: int


@dataclass(frozen=True)
class SemWait:
    """A process waits, untimed, on a multiprocessing semaphore in shared memory."""

    pid: int
    tid: int
    path: str
    count: int | None
    mappers: tuple[int, ...]


@dataclass(frozen=True)
class JoinsBlockedChild:
    """A process waits for its child to exit, and none of its other threads can post a semaphore."""

    pid: int
    tid: int
    child: int


@dataclass(frozen=True)
class ReadsOnlyFrom:
    """A process waits (its first waits) on what only those processes can end."""

    pid: int
    hows: tuple[str, ...]
    parties: tuple[int, ...]


@dataclass(frozen=True)
class SemNoOwner:
    """A semaphore names no owner: each of these processes waits for another of them."""

    members: tuple[int, ...]


@dataclass(frozen=True)
class SemDeadMapper:
    """Every live mapper waits, and these processes' children, (pid, dead children), died unreaped:
    one may have died inside the lock."""

    dead: tuple[tuple[int, tuple[int, ...]], ...]


@dataclass(frozen=True)
class ChildDeadlocked:
    """A process waits in wait4() for its child, which is deadlocked."""

    pid: int
    child: int


@dataclass(frozen=True)
class WritersDeadlocked:
    """A process reads a pipe whose only writers, its children, are deadlocked."""

    pid: int
    pipe: str
    writers: tuple[int, ...]


@dataclass(frozen=True)
class QuietOverHang:
    """No progress from a process while one in its tree is hung (its state and reason)."""

    pid: int
    hung: int
    state: str
    reason: str


@dataclass(frozen=True)
class StoppedByTerminal:
    """A child stopped by the job control of its terminal (SIGTTIN, SIGTTOU): it made `call` on
    it from a background process group it leads, one no shell outside made."""

    child: int
    terminal: str
    call: str


@dataclass(frozen=True)
class NotToldOfStops:
    """A process waits in `call` without WUNTRACED (it is never told of a stop), and none of
    `others` (the rest of the look) runs or has a timer that could send the SIGCONT."""

    pid: int
    call: str
    others: tuple[int, ...]


CycleFact = (
    PartyWait
    | WaitsForever
    | OnlySelfCanEnd
    | ChildrenExited
    | HoldsOtherEnd
    | WaitsForFdWaiter
    | FdWaiterBehindLock
    | CycleParked
    | ParentAwaitsExit
    | ChildPipeFull
    | NoReaderReads
    | MainAwaitsPool
    | ManagerInFrame
    | DeadUnreaped
    | WriteEndsOpen
    | WorkerAwaitsSend
    | ResultLockDead
    | PipeStep
    | PipeCycleAll
    | SemWait
    | JoinsBlockedChild
    | ReadsOnlyFrom
    | SemNoOwner
    | SemDeadMapper
    | ChildDeadlocked
    | WritersDeadlocked
    | QuietOverHang
    | StoppedByTerminal
    | NotToldOfStops
)
"""Every fact of a wait across processes (`judge.words.cycles` words each one)."""
