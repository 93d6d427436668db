"""What the live display shows of a wave while it runs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WorkerStatus:
    """One row of the live display."""

    slot: int
    pid: int | None
    iterations: int
    rate: float
    threads: int
    cpu_percent: float | None
    state: str
