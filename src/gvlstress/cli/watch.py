"""`watch`: a hang watchdog for any long job (a training run, a test suite, a pipeline step)."""

from __future__ import annotations

import contextlib
import math
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console

from gvlstress.cli.group import cli
from gvlstress.cli.help import usage
from gvlstress.cli.terminal import make_console, stop_on_signals
from gvlstress.errors import ExitCode, UsageError
from gvlstress.look.windows import RUN_WINDOW_S

if TYPE_CHECKING:  # what runs a watch is imported when one runs: `--help` skips it
    from gvlstress.model.watch import HangAction, WatchResult

STALL_S = 60.0
"""The default stall: longer than a healthy job's quietest stretch in most work (a checkpoint, an
epoch's validation, a slow batch), short enough that the report comes within a minute."""


CORE_LIMITS = (2**20, 2**40)
"""--core-limit's range, as a scenario's core_limit: under 1M a core holds no stack worth keeping."""
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
_WHOLE = re.compile(r"[0-9]+")


if TYPE_CHECKING:
    _NumberParam = click.ParamType[float]
else:  # generic only in newer click; subscripting it at run time would fail on older ones
    _NumberParam = click.ParamType


class _Strict(_NumberParam):
    """A number written plainly, in a range: ``60``, ``2.5``. Not what Python's float() or
    int() also take (``1_0``, ``1e3``, ``nan``, ``inf``, `` 5``): a value a human did not mean
    to write is refused with the form that is allowed."""

    def __init__(self, low: float, high: float, whole: bool = False) -> None:
        self.low, self.high, self.whole = low, high, whole
        self.name = "integer" if whole else "seconds"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            text = str(value)
            if not (_WHOLE if self.whole else _DECIMAL).fullmatch(text):
                form = "a whole number" if self.whole else "a plain number of seconds (like 60 or 2.5)"
                self.fail(f"{text!r}: expected {form} in {self.low:g}..{self.high:g}", param, ctx)
            number = float(text)
        if not self.low <= number <= self.high:
            self.fail(f"{value!r} is not in {self.low:g}..{self.high:g}", param, ctx)
        return int(number) if self.whole else number


def _core_limit(text: str) -> int:
    """--core-limit: a size in CORE_LIMITS (1M..1T)."""
    from gvlstress.scenario import parse_size

    limit = parse_size(text, "--core-limit")
    if not CORE_LIMITS[0] <= limit <= CORE_LIMITS[1]:
        raise UsageError(
            f"--core-limit {text}: must be a size from 1M to 1T", hint="e.g. --core-limit 256M or 2G"
        )
    return limit


def _on_hang(text: str) -> tuple[HangAction, int]:
    """keep | kill | signal:NAME (SIGQUIT, QUIT, USR1, 10...)."""
    from gvlstress.model.watch import HangAction

    kind, colon, name = text.partition(":")
    if kind in ("keep", "kill") and not colon:
        return HangAction(kind), signal.SIGQUIT
    if kind == "signal" and name:
        n = name.upper()
        try:
            sig = (
                signal.Signals(int(n))
                if n.isdigit()
                else signal.Signals[n if n.startswith("SIG") else f"SIG{n}"]
            )
        except (KeyError, ValueError):
            raise UsageError(
                f"--on-hang {text}: no such signal", hint="e.g. signal:QUIT or signal:USR1"
            ) from None
        return HangAction.SIGNAL, int(sig)
    raise UsageError(f"--on-hang {text!r}: expected keep, kill or signal:NAME", hint="gvlstress watch --help")


STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
"""Signals that stop a watch with its report: Ctrl-C, a scheduler's SIGTERM, a dropped ssh
session's SIGHUP, Ctrl-\\'s SIGQUIT. Each is passed on to the job, which gets GRACE_S."""


def exit_code(result: WatchResult, hang_code: int) -> int:
    """A hang: `hang_code`; stopped by a signal: 128 + it (130, 143, 129, 131); otherwise the
    job's own code (killed by a signal: 128 + the signal, as a shell says)."""
    if result.hung:
        return hang_code
    if result.stopped_by is not None:
        return 128 + int(signal.Signals[result.stopped_by])
    code = result.exit_code or 0
    return 128 - code if code < 0 else code


@cli.command(
    epilog=usage(
        "watch",
        "gvlstress watch --stall 120 --on-hang kill -- python train.py --epochs 90",
        "gvlstress watch --pid 4242 --heartbeat /tmp/job.beat",
        exits=(
            (ExitCode.OK, "the job ended with 0 (otherwise: the job's own exit code)"),
            (ExitCode.HANG, "a hang was found and reported (see --hang-exit-code)"),
            (ExitCode.USAGE, "bad options, no such command or pid"),
            (ExitCode.ENVIRONMENT, "cannot read the process or write the report"),
            ExitCode.INTERRUPTED,
            ExitCode.TERMINATED,
        ),
        notes=(
            "Progress is any data written or read, new memory touched, or a process started or\n"
            "ended in the job's tree (CPU alone is not: a spin burns CPU); with --heartbeat or\n"
            "--progress-regex only that signal counts. After --stall seconds without progress the\n"
            "tree is judged as `inspect --tree` judges it; a healthy quiet spell is noted and\n"
            "watching goes on (looked at again after 2x, 4x, 8x the stall, then every 8x)."
        ),
    ),
)
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.option("--pid", type=int, help="Watch a job already running (and its descendants) instead.")
@click.option(
    "--stall",
    type=_Strict(1, 86400),
    default=STALL_S,
    show_default=True,
    metavar="SECONDS",
    help="Seconds without progress before the job is looked at.",
)
@click.option(
    "--heartbeat", type=click.Path(path_type=Path), metavar="FILE", help="Progress is this file's mtime."
)
@click.option("--progress-regex", metavar="REGEX", help="Progress is an output line matching this.")
@click.option(
    "--on-hang",
    default="keep",
    show_default=True,
    metavar="keep|kill|signal:NAME",
    help="After the report: leave the job running, kill its tree, or send it a signal.",
)
@click.option(
    "--hang-exit-code",
    type=_Strict(1, 255, whole=True),
    default=int(ExitCode.HANG),
    show_default=True,
    metavar="N",
    help="Exit code for a hang (pick one your job never uses, e.g. 86).",
)
@click.option("--keep-core", is_flag=True, help="Keep a gzip core of each hung process (holds its memory).")
@click.option("--core-limit", default="256M", show_default=True, metavar="SIZE", help="Memory kept per core.")
@click.option(
    "--window",
    type=_Strict(0.5, 60),
    default=RUN_WINDOW_S,
    show_default=True,
    metavar="SECONDS",
    help="How long a look may watch what one snapshot cannot decide.",
)
@click.option(
    "--report-dir", default="reports", show_default=True, metavar="DIR", help="Where the report goes."
)
@click.option(
    "--log",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Send watch's own lines to FILE (appended) instead of stderr, which the job's share.",
)
@click.option(
    "--live/--no-live",
    default=None,
    help="A live table on stderr [default: with --pid on a terminal; the job keeps the terminal].",
)
def watch(
    command: tuple[str, ...],
    pid: int | None,
    stall: float,
    heartbeat: Path | None,
    progress_regex: str | None,
    on_hang: str,
    hang_exit_code: int,
    keep_core: bool,
    core_limit: str,
    window: float,
    report_dir: str,
    log: Path | None,
    live: bool | None,
) -> None:
    """Run COMMAND (after --) and watch its whole process tree for a hang: when it stops
    making progress, say why (deadlock, spin, lost task, dead peer, fork hang) and report."""
    if (pid is None) == (not command):
        raise UsageError(
            "give a COMMAND after -- or --pid PID, not both nor neither", hint="gvlstress watch --help"
        )
    if not math.isfinite(stall) or not math.isfinite(window):
        raise UsageError("--stall and --window must be finite numbers of seconds")
    if progress_regex is not None:
        try:
            re.compile(progress_regex.encode())
        except re.error as exc:
            raise UsageError(f"--progress-regex: not a regular expression ({exc})") from None
        if pid is not None:
            raise UsageError("--progress-regex reads the job's output: it goes with a COMMAND, not --pid")
    from gvlstress.api.watch import watch as run_watch
    from gvlstress.reporters.console.watch import WatchView, print_watch
    from gvlstress.supervisor.job import WatchPlan

    action, sig = _on_hang(on_hang)
    limit = _core_limit(core_limit)
    plan = WatchPlan(command, pid, stall, heartbeat, progress_regex, action, sig, window)
    with contextlib.ExitStack() as stack:
        err = make_console(stderr=True) if log is None else stack.enter_context(_log_console(log))
        shown = live if live is not None else (pid is not None and log is None and err.is_terminal)
        view = WatchView(err, shown, stall)
        said = tuple(["gvlstress", *sys.argv[1:]])
        try:
            with stop_on_signals(STOPS) as stop:
                result = run_watch(plan, Path(report_dir), stop, view, limit if keep_core else None, said)
        finally:
            view.close()
        with contextlib.suppress(OSError):  # a terminal gone with the SIGHUP that stopped us
            print_watch(err, result)
    raise SystemExit(exit_code(result, hang_exit_code))


@contextlib.contextmanager
def _log_console(path: Path) -> Iterator[Console]:
    """--log FILE: watch's own lines appended there, plain (no colour, no live table)."""
    try:
        fh = path.open("a", encoding="utf-8", buffering=1)
    except OSError as exc:
        raise UsageError(
            f"--log {path}: cannot write it ({exc.strerror})", hint="give a file in a directory you can write"
        ) from None
    with fh:
        yield Console(file=fh, highlight=False, soft_wrap=True, width=160, emoji=False, no_color=True)


__all__ = ["watch"]
