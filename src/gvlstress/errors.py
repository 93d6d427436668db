"""One error funnel: every expected failure is a `GvlstressError` that carries its exit code.

Only the CLI turns these into a message and an exit code; the API raises them.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Documented process exit codes (README, ``gvlstress --help``)."""

    OK = 0
    HANG = 1
    USAGE = 2
    WORKER_FAILED = 3
    ENVIRONMENT = 4
    INTERNAL = 70
    """A bug in gvlstress (EX_SOFTWARE): one line, the traceback in a file; never 1 ("hang found")."""
    INTERRUPTED = 130
    TERMINATED = 143


class GvlstressError(Exception):
    """An expected failure: a one-line message, an optional hint, and an exit code."""

    exit_code: ExitCode = ExitCode.USAGE

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class UsageError(GvlstressError):
    """Bad option value, bad scenario file, unknown target or fault mode."""

    exit_code = ExitCode.USAGE


class EnvironmentProblem(GvlstressError):
    """The host cannot run this: a missing native build, an unwritable report dir, no /proc."""

    exit_code = ExitCode.ENVIRONMENT


class StopNow(BaseException):
    """A second Ctrl-C or SIGTERM: stop at once, whatever is in progress (an import that hangs,
    a slow warm-up). Cleanups still run on the way out, and the watchdog kills what is left."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
