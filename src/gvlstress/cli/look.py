"""`inspect`, `doctor`, `selftest`: looking at a live process, at this host, at the harness itself."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import click

from gvlstress import api
from gvlstress.cli.group import cli
from gvlstress.cli.terminal import interrupted_code, make_console, stop_on_signals
from gvlstress.controls.realbugs import NAMES as _REAL_NAMES
from gvlstress.controls.selftest import NAMES as _SELFTEST_NAMES
from gvlstress.errors import ExitCode, UsageError
from gvlstress.reporters.console import (
    print_checks,
    print_inspect,
    print_profile,
    print_realbugs,
    print_selftest,
)
from gvlstress.supervisor.look import LOOK_WINDOW_S

INSPECT_EPILOG = """\b
It looks over a window (2 s by default): /proc every 0.4 s, stacks at the
start, Python stacks between, native stacks again where a thread burned CPU.
Verdicts: idle (every wait can still end), busy (burning CPU with no named
cause), stopped (SIGSTOP or a tracer), stalled (ambiguous: a wait another
process may end), deadlock (a wait nothing can end: a closed wait set, a
pool that lost a task, a peer that has gone; named where a pattern fits),
livelock (a spin whose cause is named: the GIL's holder spinning for threads
that need the GIL, a fork spinning for threads it did not copy).
Exit codes: 0 captured (idle, busy, stopped, stalled); 1 deadlock or livelock;
2 bad pid; 4 cannot read /proc or write the report.
\b
Examples:
  gvlstress inspect 4242             # a hung process
  gvlstress inspect 4242 --tree      # a launcher and its pool's workers
"""


@cli.command(epilog=INSPECT_EPILOG)
@click.argument("pid", type=int)
@click.option("--tree", is_flag=True, help="Also look at every descendant process (a pool's workers).")
@click.option(
    "--report-dir", default="reports", show_default=True, metavar="DIR", help="Where the report goes."
)
@click.option(
    "--window",
    type=click.FloatRange(0.5, 3600),
    default=LOOK_WINDOW_S,
    show_default=True,
    metavar="SECONDS",
    help="How long to look: longer sees slower progress (and costs that long).",
)
@click.option(
    "--watch", type=click.FloatRange(0.5, 3600), metavar="SECONDS", hidden=True, help="Old name of --window."
)
def inspect(pid: int, tree: bool, report_dir: str, window: float, watch: float | None) -> None:
    """Capture and explain a live process, such as a hung training job; it is never killed."""
    window = watch if watch is not None else window
    if not math.isfinite(window):  # click's range lets NaN through
        raise UsageError(f"--window: must be a finite number of seconds, got {window!r}")
    console = make_console()
    result = api.inspect(
        pid,
        tree=tree,
        report_dir=Path(report_dir),
        command=tuple(["gvlstress", *sys.argv[1:]]),
        window=window,
    )
    print_inspect(console, result)
    raise SystemExit(int(ExitCode.HANG if result.looks_deadlocked else ExitCode.OK))


DOCTOR_EPILOG = """\b
--export writes this host's profile instead of checking it: CPUs, affinity,
cpuset and the cgroup's CPU quota (which nproc does not show), RAM, swap and
the cgroup's memory limit, the thread-count variables (names as set; values
that could be secrets redacted; nothing else from the environment), the start
method its children show (--pid), the kernel, glibc, Python, the versions of
the target's packages and the pool sizes a fresh process gets there. Replay it
on another machine with `gvlstress run --like FILE`.
\b
Examples:
  gvlstress doctor
  gvlstress doctor --export host.toml
  gvlstress doctor --export host.toml --pid 4242   # a running pipeline's conditions
Exit codes: 0 a run would get full diagnostics (or the profile was written);
2 bad option, an existing file without --force, no such pid; 4 something is
missing, or the profile cannot be read or written.
"""


@cli.command(epilog=DOCTOR_EPILOG)
@click.option(
    "--export",
    "export_to",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Write this host's profile (TOML) for `run --like FILE` on another machine.",
)
@click.option(
    "--pid",
    type=click.IntRange(1),
    help="With --export: profile this running process (a pipeline) instead of doctor's own.",
)
@click.option(
    "--python",
    metavar="PATH",
    help="With --export: the interpreter whose package versions and pools are read [default: the "
    "pid's, else this one].",
)
@click.option(
    "--target",
    metavar="MODULE:CALLABLE",
    help="With --export: also keep the version of this target's own package.",
)
@click.option("--force", is_flag=True, help="With --export: replace an existing file.")
def doctor(
    export_to: Path | None, pid: int | None, python: str | None, target: str | None, force: bool
) -> None:
    """Check this host: py-spy and native-stack attach, ptrace policy, CPU budget, thread knobs."""
    from gvlstress.controls.doctor import export, healthy, run_checks

    console = make_console()
    if export_to is None:
        given = [name for name, v in (("--pid", pid), ("--python", python), ("--target", target)) if v]
        if given or force:
            raise UsageError(
                f"{(given or ['--force'])[0]} goes with --export", hint="gvlstress doctor --help"
            )
        checks = run_checks()
        print_checks(console, checks)
        raise SystemExit(int(ExitCode.OK if healthy(checks) else ExitCode.ENVIRONMENT))
    print_profile(console, export(export_to, pid, python, target, force), str(export_to))


SELFTEST_EPILOG = """\b
--real runs the catalogue of real bugs instead: documented hangs in Python and
PyPI packages, each inspected while it hangs (it must be caught and named) and
each with its documented fix as a control (it must finish). Entries: {real}.
Exit codes: 0 every class caught and named and the negative controls clean;
1 a class was missed or misnamed (or a negative control raised a false alarm);
2 bad option; 130/143 interrupted.
""".format(real=", ".join(_REAL_NAMES))


@cli.command(epilog=SELFTEST_EPILOG)
@click.option(
    "--only",
    "only",
    multiple=True,
    type=click.Choice(_SELFTEST_NAMES + _REAL_NAMES),
    help="Run only this class, or with --real this entry (repeatable).",
)
@click.option("--real", is_flag=True, help="Run the catalogue of real bugs (and their controls) instead.")
@click.option(
    "--repeat", type=click.IntRange(1, 1000), default=1, show_default=True, help="Runs per class (fidelity)."
)
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--rayon", type=click.IntRange(1, 256), default=8, show_default=True)
@click.option("--report-dir", default="reports", show_default=True, metavar="DIR")
def selftest(
    only: tuple[str, ...], real: bool, repeat: int, workers: int, rayon: int, report_dir: str
) -> None:
    """Prove this host catches every known failure class (run before trusting a clean run)."""
    console = make_console()
    wrong = [n for n in only if (n in _REAL_NAMES) != real]
    if wrong:
        raise UsageError(
            f"--only {wrong[0]} is {'not ' if real else ''}an entry of the real-bug catalogue",
            hint=f"with --real: {', '.join(_REAL_NAMES)}; without: {', '.join(_SELFTEST_NAMES)}",
        )
    if real:
        _real(console, only, Path(report_dir))

    def progress(control: Any, i: int, attempt: Any) -> None:
        mark = "ok" if attempt.named(control) else "MISSED"
        console.print(
            f"  {control.name} #{i + 1}: {attempt.verdict.value} "
            f"{'/'.join(attempt.patterns) or '-'} ({mark})",
            highlight=False,
            markup=False,
        )

    with stop_on_signals() as stop:
        result = api.selftest(only or None, repeat, workers, rayon, Path(report_dir), progress, stop)
    print_selftest(console, result)
    if stop:
        raise SystemExit(int(interrupted_code(stop.signum)))
    raise SystemExit(int(ExitCode.OK if result.passed else ExitCode.HANG))


def _real(console: Any, only: tuple[str, ...], report_dir: Path) -> None:
    def progress(o: Any) -> None:
        state = "skipped: " + o.skipped if o.skipped else ("ok" if o.passed else "MISSED")
        console.print(
            f"  {o.bug.name}: {o.verdict or '-'} {o.pattern or '-'} ({state})", highlight=False, markup=False
        )

    with stop_on_signals() as stop:
        result = api.real_selftest(only or None, report_dir, progress, stop)
    print_realbugs(console, result)
    if stop:
        raise SystemExit(int(interrupted_code(stop.signum)))
    raise SystemExit(int(ExitCode.OK if result.passed else ExitCode.HANG))
