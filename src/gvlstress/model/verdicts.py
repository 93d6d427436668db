"""Verdicts: what happened to a worker (or a wave, a run), and how counts read."""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    """What happened to a worker (or, as its worst worker, a wave or a run).

    ``cancelled`` is a worker the harness stopped while it was still healthy, because a sibling
    hung or crashed or the run was interrupted: it is neither a pass nor a failure of its own.
    ``idle``, ``busy`` and ``stopped`` are said by ``inspect`` only (it has no progress signal).
    """

    OK = "ok"
    IDLE = "idle"
    BUSY = "busy"
    STOPPED = "stopped"
    CANCELLED = "cancelled"
    SLOW = "slow"
    ERROR = "error"
    CRASH = "crash"
    STALLED = "stalled"
    LIVELOCK = "livelock"
    DEADLOCK = "deadlock"

    @property
    def severity(self) -> int:
        """Order used to pick a wave's verdict: its worst worker's."""
        return _SEVERITY[self]

    @property
    def is_hang(self) -> bool:
        return self in (Verdict.DEADLOCK, Verdict.LIVELOCK, Verdict.STALLED)

    @property
    def is_failure(self) -> bool:
        return self in (Verdict.CRASH, Verdict.ERROR)


_SEVERITY = {v: i for i, v in enumerate(Verdict)}


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 wave', '3 waves', '1 batch', '2 batches': counts read as a person writes them."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {many or (word + 'es' if word.endswith(('s', 'sh', 'ch', 'x')) else word + 's')}"


def worst(verdicts: list[Verdict] | tuple[Verdict, ...]) -> Verdict:
    """The most severe verdict, ``ok`` for none."""
    return max(verdicts, key=lambda v: v.severity, default=Verdict.OK)
