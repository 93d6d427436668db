"""The command line's entry point and its error funnel: the only place that prints errors and
picks exit codes. A thin layer over `gvlstress.api`.
"""

from __future__ import annotations

import os
import signal
import sys

import click

from gvlstress.cli.group import cli
from gvlstress.cli.terminal import interrupted_code, make_console
from gvlstress.errors import ExitCode, GvlstressError, StopNow
from gvlstress.system import failure
from gvlstress.system.redact import redact_path, redact_text
from gvlstress.system.text import one_line


def _save_traceback(exc: BaseException) -> str:
    """The exception's traceback in a file of its own (the run directory may not exist), made by
    the record that never raises: a bug's exception may be as hostile as a loader's."""
    import tempfile

    try:
        fd, path = tempfile.mkstemp(prefix="gvlstress-internal-error-", suffix=".txt")
        with open(fd, "w", encoding="utf-8") as fh:
            fh.write(failure.describe(exc).traceback + "\n")
        return path
    except OSError:
        return "(could not be written)"


def _said(text: str) -> str:
    """A message on one printable line, redacted (it may quote what the user gave or raised)."""
    return one_line(redact_text(text))


def _disk_hint(argv: list[str] | None) -> str:
    """What to do about a disk that refused: --report-dir only where the command has it."""
    words = sys.argv[1:] if argv is None else argv
    command = cli.commands.get(next((w for w in words if not w.startswith("-")), ""))
    if command is not None and any(p.name == "report_dir" for p in command.params):
        return "free space or pass --report-dir with a writable directory"
    return "free space, or write to a directory you can write to"


def main(argv: list[str] | None = None) -> None:
    """The error funnel: every expected failure becomes one line on stderr and its exit code."""
    err = make_console(stderr=True)
    try:
        code = cli.main(args=argv, prog_name="gvlstress", standalone_mode=False)
    except GvlstressError as exc:
        hint = f" (hint: {_said(exc.hint)})" if exc.hint else ""
        err.print(f"gvlstress: error: {_said(exc.message)}{hint}", markup=False)
        raise SystemExit(int(exc.exit_code)) from None
    except click.exceptions.NoArgsIsHelpError as exc:
        err.print(exc.format_message(), markup=False)
        raise SystemExit(int(ExitCode.USAGE)) from None
    except click.ClickException as exc:  # click's own usage errors, in the same style as ours
        ctx = getattr(exc, "ctx", None)
        cmd = (
            f"gvlstress {ctx.info_name}" if ctx is not None and ctx.info_name != "gvlstress" else "gvlstress"
        )
        err.print(f"gvlstress: error: {_said(exc.format_message())} (hint: {cmd} --help)", markup=False)
        raise SystemExit(int(ExitCode.USAGE)) from None
    except click.exceptions.Abort:
        raise SystemExit(int(ExitCode.INTERRUPTED)) from None
    except StopNow as now:
        err.print(
            f"gvlstress: stopped at once by a second {signal.Signals(now.signum).name} "
            "(what was in progress has no report; started processes were killed)",
            markup=False,
        )
        raise SystemExit(int(interrupted_code(now.signum))) from None
    except OSError as exc:  # a full or read-only filesystem, a vanished directory: the host's problem
        where = (
            f" ({redact_path(os.fsdecode(exc.filename))})" if isinstance(exc.filename, (str, bytes)) else ""
        )
        found = "".join(f"; {note}" for note in getattr(exc, "__notes__", ()) if isinstance(note, str))
        err.print(
            f"gvlstress: error: cannot write or read{_said(where)}: {_said(exc.strerror or str(exc))}{_said(found)} "
            f"(hint: {_disk_hint(argv)})",
            markup=False,
        )
        raise SystemExit(int(ExitCode.ENVIRONMENT)) from None
    except Exception as exc:  # a bug: say so in one line, keep the traceback for the report
        path = _save_traceback(exc)
        err.print(
            f"gvlstress: internal error: {_said(failure.summary(exc))} "
            f"(a bug in gvlstress; traceback in {path}; please report it)",
            markup=False,
        )
        raise SystemExit(int(ExitCode.INTERNAL)) from None
    raise SystemExit(int(code or 0))


__all__ = ["cli", "main"]
