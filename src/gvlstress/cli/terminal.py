"""The terminal: one console, stdout that a closed pipe cannot break, Ctrl-C and SIGTERM
turned into a stop flag (a second one stops at once).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any, cast

from rich.console import Console

from gvlstress.errors import ExitCode, StopNow
from gvlstress.supervisor.events import StopFlag


class _PipeSafe:
    """stdout that a closed pipe cannot break (``gvlstress inspect PID | head -1``): once the
    reader is gone the rest goes to /dev/null, and the command still exits with its own code."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self.stream.write(text))
        except BrokenPipeError:
            self._detach()
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            self._detach()

    def _detach(self) -> None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self.stream.fileno())  # the interpreter's final flush must not fail
        os.close(devnull)

    def isatty(self) -> bool:
        return bool(self.stream.isatty())

    def fileno(self) -> int:
        return int(self.stream.fileno())


def make_console(stderr: bool = False) -> Console:
    """The one way this CLI builds a console: log lines stay whole and tables wide when piped."""
    probe = Console(stderr=stderr)
    width = None if probe.is_terminal else 160
    file = None if stderr else cast("IO[str]", _PipeSafe(sys.stdout))
    return Console(stderr=stderr, file=file, highlight=False, soft_wrap=True, width=width, emoji=False)


STOPS = (signal.SIGINT, signal.SIGTERM)
"""What stops a command the way Ctrl-C does (`stop_on_signals`'s default)."""


@contextmanager
def stop_on_signals(signals: tuple[int, ...] = STOPS) -> Iterator[StopFlag]:
    """Ctrl-C and SIGTERM (or `signals`) set a flag the supervisor polls: it tears down and still
    reports. A second one stops at once (StopNow), for when what runs never looks at the flag."""
    stop = StopFlag()

    def handle(signum: int, _frame: object) -> None:
        if stop:
            raise StopNow(signum)
        stop.set(signum)

    previous = {sig: signal.signal(sig, handle) for sig in signals}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def interrupted_code(signum: int | None) -> ExitCode:
    return ExitCode.TERMINATED if signum == signal.SIGTERM else ExitCode.INTERRUPTED
