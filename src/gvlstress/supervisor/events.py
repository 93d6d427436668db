"""What a wave tells the outside while it runs (`Observer`) and how it is told to stop (`StopFlag`)."""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # annotations only: the CLI's start-up imports this module for StopFlag
    from gvlstress.model import ProbeFinding, WaveResult
    from gvlstress.model.live import WorkerStatus
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
        self._pipe: tuple[int, int] | None = None
        from gvlstress.probes import tools  # here, not at the top: the CLI's start-up imports StopFlag

        tools.reset()
        self._tools = tools  # a signal handler must not import: `set` uses the module loaded here

    def set(self, signum: int) -> None:
        if self.signum is None:
            self.signum = signum
        if self._pipe is not None:  # a write: safe in a signal handler, unlike waking a lock
            with contextlib.suppress(OSError):
                os.write(self._pipe[1], b"!")
        self._tools.cancel()  # a capture in progress kills its tools now, not at their deadlines

    def fileno(self) -> int:
        """A descriptor that turns readable once the flag is set: a loop waiting in select ends
        its wait at once instead of at its next tick (`close` it when done)."""
        if self._pipe is None:
            r, w = os.pipe()
            os.set_blocking(w, False)
            self._pipe = (r, w)
            if self.signum is not None:
                os.write(w, b"!")
        return self._pipe[0]

    def close(self) -> None:
        if self._pipe is not None:
            for fd in self._pipe:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._pipe = None

    def __bool__(self) -> bool:
        return self.signum is not None
