"""Facts every explanation shows (`judge.explain`): parked threads, futex groups, threads off a
futex, idle-by-design threads, the GIL, the busiest threads."""

from __future__ import annotations

from dataclasses import dataclass


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


ExplainedFact = Parked | FutexWaiters | OffFutex | IdleByDesign | GilHeld | GilFree | GilUnknown | Busiest
"""Every fact an explanation shows (`judge.words.explained` words each one)."""
