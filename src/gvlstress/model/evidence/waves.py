"""Facts of a wave's failures (`judge.outcome`): a crash, an error, an executor wedged by a
worker that died."""

from __future__ import annotations

from dataclasses import dataclass


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


WaveFact = (
    WorkerDied
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
"""Every fact of a wave's failures (`judge.words.waves` words each one)."""
