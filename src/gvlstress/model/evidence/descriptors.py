"""Facts of waits on descriptors (`judge.peers`, `judge.loops`, `judge.relock`): a peer that has
gone or is hung itself, an event loop nothing can wake, a file lock retried against itself."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BehindHungPeer:
    """The waiter (`who`) waits (`detail`) on ends held by processes deadlocked themselves."""

    who: str
    detail: str
    ends: tuple[str, ...]


@dataclass(frozen=True)
class PeerWaits:
    """The waiter (`who`) waits (`detail`) on descriptors nobody else answers."""

    who: str
    detail: str


@dataclass(frozen=True)
class PeerEnd:
    """What one end of the wait leads to (its words)."""

    words: str


@dataclass(frozen=True)
class OwnEndOnly:
    """Only this process holds the other end; its other threads (how many) wait on its own things."""

    others: int


@dataclass(frozen=True)
class NoHolder:
    """No process holds the other end."""


@dataclass(frozen=True)
class AnswererGone:
    """Dead, unreaped children (worded: '812 (signal 9)'): whoever was to answer has gone."""

    dead: str


@dataclass(frozen=True)
class InTeardown:
    """The wait is inside a library's teardown (its frame)."""

    frame: str


@dataclass(frozen=True)
class InChannel:
    """The wait is in a channel made for another process (its frame), whose end only this one holds."""

    frame: str


@dataclass(frozen=True)
class LoopNoTimer:
    """An asyncio event loop waits with no timeout (the loop's timer count, if read)."""

    tid: int
    detail: str
    timers: str | None


@dataclass(frozen=True)
class LoopWatchesOwn:
    """It watches only descriptors whose other end no other process holds."""

    watched: str


@dataclass(frozen=True)
class LoopWatchesNothing:
    """Its selector watches no descriptor at all."""


@dataclass(frozen=True)
class LoopOthersForever:
    """The process's other threads (how many; none: it is the only one) wait forever themselves."""

    others: int


@dataclass(frozen=True)
class NoWakingSignal:
    """It catches no signal that could wake it."""


@dataclass(frozen=True)
class WakeupLost:
    """Every task of the loop waits for something nothing will produce."""


@dataclass(frozen=True)
class RetriesLock:
    """A thread retries on a timer inside a lock's acquire, nothing moved."""

    tid: int
    comm: str
    wakeups: int | None
    window_s: float


@dataclass(frozen=True)
class HoldsFileLock:
    """The process holds a file lock through an fd, and has the file open again (or nobody else locks)."""

    pid: int
    target: str
    fd: int
    again: int | None


@dataclass(frozen=True)
class OnlyItReleases:
    """Only this process releases the lock, and no other thread of it is left (`others`: it has some)."""

    others: bool


DescriptorFact = (
    BehindHungPeer
    | PeerWaits
    | PeerEnd
    | OwnEndOnly
    | NoHolder
    | AnswererGone
    | InTeardown
    | InChannel
    | LoopNoTimer
    | LoopWatchesOwn
    | LoopWatchesNothing
    | LoopOthersForever
    | NoWakingSignal
    | WakeupLost
    | RetriesLock
    | HoldsFileLock
    | OnlyItReleases
)
"""Every fact of a wait on descriptors (`judge.words.descriptors` words each one)."""
