"""What a wave tells the outside while it runs (`Observer`) and how it is told to stop (`StopFlag`)."""

from __future__ import annotations

from typing import Protocol

from gvlstress.model import ProbeFinding, WaveResult
from gvlstress.model.live import WorkerStatus
from gvlstress.probes import tools
from gvlstress.scenario import Scenario

__all__ = ["Observer", "StopFlag"]


class Observer(Protocol):
    """Receives live events; the console reporter implements it. Must not block."""

    def run_started(self, run_dir: str) -> None:
        """Where the run's files go (the path on this disk: whoever shows it redacts it), before
        its first wave."""

    def wave_started(self, index: int, scenario: Scenario) -> None: ...

    def progress(self, index: int, rows: tuple[WorkerStatus, ...]) -> None: ...

    def suspected(self, index: int, slot: int, finding: ProbeFinding) -> None: ...

    def capturing(self, index: int, pids: tuple[int, ...]) -> None: ...

    def warn(self, message: str) -> None: ...

    def wave_finished(self, wave: WaveResult) -> None: ...

    def kept_alive(self, wave: WaveResult, seconds: float, report: str) -> None: ...


class StopFlag:
    """Set from a signal handler; the loop checks it every poll."""

    def __init__(self) -> None:
        self.signum: int | None = None
        tools.reset()

    def set(self, signum: int) -> None:
        if self.signum is None:
            self.signum = signum
        tools.cancel()  # a capture in progress kills its tools now, not at their deadlines

    def __bool__(self) -> bool:
        return self.signum is not None
