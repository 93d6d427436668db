"""One error funnel: every expected failure is a `GvlstressError` that carries its exit code.

Only the CLI turns these into a message and an exit code; the API raises them.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """The process exit codes, each with its one-line meaning (`meaning`, `label`): the one source
    of ``gvlstress --help``'s list, each command's, and the documentation's table."""

    OK = 0
    HANG = 1
    USAGE = 2
    WORKER_FAILED = 3
    ENVIRONMENT = 4
    INTERNAL = 70
    """A bug in gvlstress (EX_SOFTWARE): one line, the traceback in a file; never 1 ("hang found")."""
    INTERRUPTED = 130
    TERMINATED = 143

    @property
    def meaning(self) -> str:
        """One line: what this code says (a command's help may say it more precisely)."""
        return _MEANINGS[self][1]

    @property
    def label(self) -> str:
        """A few words, for a command's one-line list of its codes."""
        return _MEANINGS[self][0]


_MEANINGS: dict[ExitCode, tuple[str, str]] = {
    ExitCode.OK: (
        "nothing found",
        "nothing found: every wave ok or slow (inspect: idle, busy, stopped or stalled)",
    ),
    ExitCode.HANG: (
        "a hang",
        "a hang: a deadlock, livelock or stalled worker (inspect: deadlock or livelock)",
    ),
    ExitCode.USAGE: (
        "usage error",
        "usage error: bad option, scenario, target, fault or pid; your target failing at import",
    ),
    ExitCode.WORKER_FAILED: (
        "a worker crashed or raised",
        "a worker crashed or raised (whatever your loader raises); report.md and run.json written",
    ),
    ExitCode.ENVIRONMENT: (
        "environment problem",
        "environment problem: native loader not built, report dir unwritable or full, no /proc",
    ),
    ExitCode.INTERNAL: (
        "a bug in gvlstress",
        "a bug in gvlstress: one line, the traceback saved to a file it names",
    ),
    ExitCode.INTERRUPTED: (
        "interrupted",
        "interrupted by Ctrl-C; run.json is still written (a second one stops at once)",
    ),
    ExitCode.TERMINATED: (
        "terminated",
        "stopped by SIGTERM; run.json is still written (a second one stops at once)",
    ),
}


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
