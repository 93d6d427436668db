"""Evidence as facts: what a rule or the explanation found, held as its objects (tids,
addresses, pids, frames), never as prose; `judge.words` words each kind in one place.

A frame or a wait is held as the label the judge reads it by (``where``: 'Mutex::lock_contended
(mutex.rs:12)', ``waits``: 'futex 0x7f1c (no timeout)'): those labels are objects of the
capture, not sentences. `Note` is free text that no rule or test reads (the /proc judge's wait
chain, rules not yet typed); keep it rare.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Note:
    """Free text: a line no rule or test reads as a fact."""

    text: str


@dataclass(frozen=True)
class ChainStep:
    """One step of the wait chain as the /proc judge followed it (`ProbeFinding.chain`)."""

    text: str


# --- what every explanation shows (`judge.explain`) ---


@dataclass(frozen=True)
class Parked:
    """How many threads sleep with no CPU, the CPU all of them used over the window, and the
    caller's word on progress."""

    parked: int
    threads: int
    cpu_s: float
    window_s: float
    progress: str


@dataclass(frozen=True)
class FutexWaiters:
    """Threads parked on one futex address, who they are and where they block."""

    addr: int
    tids: tuple[int, ...]
    roles: tuple[str, ...]
    """'3 rayon pool threads', '1 main thread'; empty when no stack named them."""
    blocked_in: str


@dataclass(frozen=True)
class OffFutex:
    """A thread that waits, or runs, elsewhere than on a futex."""

    tid: int
    comm: str
    state: str
    at: str


@dataclass(frozen=True)
class IdleByDesign:
    """Threads recognised as idle by design, as 'tid: what' (listed, never evidence)."""

    threads: tuple[str, ...]


@dataclass(frozen=True)
class GilHeld:
    """py-spy says this thread holds the GIL."""

    tid: int
    where: str


@dataclass(frozen=True)
class GilFree:
    """py-spy saw every thread, and none holds the GIL."""


@dataclass(frozen=True)
class GilUnknown:
    """No py-spy view: who holds the GIL is not known."""


@dataclass(frozen=True)
class Busiest:
    """The threads that used the most CPU over the window, as (tid, CPU-seconds)."""

    threads: tuple[tuple[int, float], ...]


# --- forks ---


@dataclass(frozen=True)
class ForkNoExec:
    """This process is a fork of its parent that never exec'd; `lone`: it has one thread;
    `same_program`: the wording says 'same program and interpreter state'."""

    pid: int
    parent: int
    lone: bool = True
    same_program: bool = False


# --- a wave's failures and its wedged executor (`judge.outcome`) ---


@dataclass(frozen=True)
class WorkerDied:
    """A worker of a wedged executor died (`died`: 'SIGKILL', 'exit code 1'), killed by whom if
    known, while sending its result or not."""

    pid: int
    died: str
    killed_by: str | None
    sending: bool


@dataclass(frozen=True)
class UnreapedZombie:
    """The dead worker is a zombie the executor never reaped, its future pending for `wedge_s`."""

    wedge_s: float


@dataclass(frozen=True)
class ManagerWaitsFrame:
    """The executor's manager thread waits for the rest of a result frame (no EOF will come)."""


@dataclass(frozen=True)
class ManagerStack:
    """Where the executor's manager thread is, outermost first."""

    frames: tuple[str, ...]


@dataclass(frozen=True)
class ResultLockOfDead:
    """This worker finished its share and waits for the result queue's lock, held by a dead worker."""

    pid: int


@dataclass(frozen=True)
class StillAtWork:
    """This worker was still at work when the wedge was found: its future stays pending too."""


@dataclass(frozen=True)
class ProcSaid:
    """What /proc decided of this process."""

    reason: str


@dataclass(frozen=True)
class Crashed:
    """A worker died: its last line, exit code and signal."""

    line: str
    exit_code: int | None
    signal: int | None


@dataclass(frozen=True)
class BatchesBefore:
    """How many batches a worker completed before it died."""

    batches: int


@dataclass(frozen=True)
class StderrCause:
    """A known cause read from a worker's stderr (its name and the line that told)."""

    name: str
    line: str


@dataclass(frozen=True)
class Raised:
    """How many workers of the wave raised, and how many finished cleanly with the same code."""

    raised: int
    workers: int
    clean: int


@dataclass(frozen=True)
class RaisedAfter:
    """A worker raised after this many batches: its last line."""

    batches: int
    last: str


Fact = (
    Note
    | ChainStep
    | Parked
    | FutexWaiters
    | OffFutex
    | IdleByDesign
    | GilHeld
    | GilFree
    | GilUnknown
    | Busiest
    | ForkNoExec
    | WorkerDied
    | UnreapedZombie
    | ManagerWaitsFrame
    | ManagerStack
    | ResultLockOfDead
    | StillAtWork
    | ProcSaid
    | Crashed
    | BatchesBefore
    | StderrCause
    | Raised
    | RaisedAfter
)
"""Every kind of fact a diagnosis or a rule's match carries (`judge.words` words each one)."""


def notes(*lines: str) -> tuple[Note, ...]:
    """Lines of a rule not typed yet, as `Note` facts."""
    return tuple(Note(line) for line in lines)
