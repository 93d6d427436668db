"""`inspect`, `doctor`, `selftest`: inspections of a live process, of this host, of the harness itself."""

from __future__ import annotations

import math
import sys
import textwrap
from pathlib import Path
from typing import Any

import click

from gvlstress import api
from gvlstress.cli.group import cli
from gvlstress.cli.help import WIDTH, LazyChoice, usage
from gvlstress.cli.terminal import interrupted_code, make_console, stop_on_signals
from gvlstress.errors import ExitCode, UsageError
from gvlstress.look.windows import LOOK_WINDOW_S
from gvlstress.model.verdicts import IN_INSPECT

# what runs a command is imported inside it: `--help` and the other commands skip it


def _names(real: bool) -> tuple[str, ...]:
    if real:
        from gvlstress.controls.realbugs import NAMES

        return NAMES
    from gvlstress.controls.selftest import NAMES as SELFTEST_NAMES

    return SELFTEST_NAMES


def _verdict_lines() -> str:
    """What inspect's verdicts mean, from the model's own words (one source with the docs)."""
    lines = []
    for verdict, meaning in IN_INSPECT.items():
        lines += textwrap.wrap(f"{verdict.value}: {meaning}", WIDTH - 4, subsequent_indent="    ")
    return (
        "It reads /proc twice and the stacks; a wait its stacks name is judged then. What that\n"
        "leaves open it looks at over a window: /proc every 0.4 s, stacks where CPU burned.\n"
        "With --core it judges a core offline instead (one run --keep-core kept, gcore's, the\n"
        "kernel's): the same rules over what a core holds (registers give each thread's syscall\n"
        "and futex; pystack reads stacks and the GIL), without what only /proc has (CPU over a\n"
        "window, wait channels, descriptors, peers).\n" + "\n".join(lines)
    )


@cli.command(
    epilog=usage(
        "inspect",
        "gvlstress inspect 4242 --tree         # a hung launcher and its pool's workers",
        "gvlstress inspect --core reports/RUN/cores/wave1-pid4242.core.gz",
        exits=(
            (ExitCode.OK, "captured (idle, busy, stopped, stalled)"),
            (ExitCode.HANG, "deadlock or livelock"),
            (
                ExitCode.USAGE,
                "bad pid or core (also a kernel thread, a zombie, or a process gone during the look; "
                "an --exe that is not the core's program)",
            ),
            (
                ExitCode.ENVIRONMENT,
                "cannot read /proc or write the report; no stacks could be read from the core",
            ),
        ),
        notes=_verdict_lines(),
    )
)
@click.argument("pid", type=int, required=False)
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
    help="How long to look at what the first samples leave open: longer sees slower progress "
    "(a process parked in a wait its stacks name is judged without it).",
)
@click.option(
    "--watch", type=click.FloatRange(0.5, 3600), metavar="SECONDS", hidden=True, help="Old name of --window."
)
@click.option(
    "--core",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Judge this core offline instead of a live PID (gzip, xz or plain ELF core).",
)
@click.option(
    "--exe",
    metavar="PYTHON",
    help="With --core: the program the process ran [default: the one the core names].",
)
def inspect(
    pid: int | None,
    tree: bool,
    report_dir: str,
    window: float,
    watch: float | None,
    core: Path | None,
    exe: str | None,
) -> None:
    """Capture and explain a live process, such as a hung training job (it is never killed), or
    a core of one (--core)."""
    window = watch if watch is not None else window
    if not math.isfinite(window):  # click's range lets NaN through
        raise UsageError(f"--window: must be a finite number of seconds, got {window!r}")
    if (pid is None) == (core is None):
        raise UsageError("give a PID or --core CORE, not both nor neither", hint="gvlstress inspect --help")
    if exe is not None and core is None:
        raise UsageError("--exe goes with --core", hint="gvlstress inspect --core CORE --exe PYTHON")
    console = make_console()
    command = tuple(["gvlstress", *sys.argv[1:]])
    if core is not None:
        result = api.inspect_core(core, exe, Path(report_dir), command)
    else:
        assert pid is not None
        result = api.inspect(pid, tree=tree, report_dir=Path(report_dir), command=command, window=window)
    from gvlstress.reporters.console import print_inspect

    print_inspect(console, result)
    raise SystemExit(int(ExitCode.HANG if result.looks_deadlocked else ExitCode.OK))


@cli.command(
    epilog=usage(
        "doctor",
        "gvlstress doctor",
        "gvlstress doctor --export host.toml --pid 4242   # a running pipeline's host",
        exits=(
            (ExitCode.OK, "a run would get full diagnostics (or the profile was written)"),
            (ExitCode.USAGE, "bad option, an existing file without --force, no such pid"),
            (ExitCode.ENVIRONMENT, "something is missing, or the profile cannot be read or written"),
        ),
        notes="--export writes this host's profile instead of checking it: CPUs, affinity, cpuset and\n"
        "the cgroup's CPU quota (which nproc does not show), RAM, swap and the memory limit, the\n"
        "thread-count variables (values that could be secrets redacted; nothing else from the\n"
        "environment), the start method its children show (--pid), kernel, glibc, Python, the\n"
        "target's package versions and pool sizes. Replay it elsewhere: gvlstress run --like FILE.",
    )
)
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
    from gvlstress.reporters.console import print_checks, print_profile

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


@cli.command(
    epilog=usage(
        "selftest",
        "gvlstress selftest --repeat 3",
        "gvlstress selftest --real --only mp-join-before-get",
        exits=(
            (ExitCode.OK, "every class caught and named, the negative controls (--real: the fixes) clean"),
            (ExitCode.HANG, "a class missed or misnamed, or a false alarm"),
            (ExitCode.USAGE, "bad option"),
            (ExitCode.INTERRUPTED, "interrupted (143: SIGTERM)"),
        ),
        notes="--real runs the catalogue of real bugs instead: documented hangs in Python and PyPI\n"
        "packages, each inspected while it hangs and each with its documented fix as a control.",
    )
)
@click.option(
    "--only",
    "only",
    multiple=True,
    type=LazyChoice(lambda: _names(False) + _names(True)),
    metavar="NAME",
    help="Run only this class, or with --real this entry (repeatable; a wrong name lists them).",
)
@click.option("--real", is_flag=True, help="Run the catalogue of real bugs (and their controls) instead.")
@click.option(
    "--repeat", type=click.IntRange(1, 1000), default=1, show_default=True, help="Runs per class (fidelity)."
)
@click.option(
    "--workers", type=click.IntRange(1, 64), default=2, show_default=True, help="Workers per control."
)
@click.option(
    "--rayon", type=click.IntRange(1, 256), default=8, show_default=True, help="Threads per worker."
)
@click.option(
    "--report-dir", default="reports", show_default=True, metavar="DIR", help="Where run directories go."
)
def selftest(
    only: tuple[str, ...], real: bool, repeat: int, workers: int, rayon: int, report_dir: str
) -> None:
    """Prove this host catches every known failure class (run before trusting a clean run)."""
    from gvlstress.reporters.console import print_selftest

    console = make_console()
    wrong = [n for n in only if (n in _names(True)) != real]
    if wrong:
        raise UsageError(
            f"--only {wrong[0]} is {'not ' if real else ''}an entry of the real-bug catalogue",
            hint=f"with --real: {', '.join(_names(True))}; without: {', '.join(_names(False))}",
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
    from gvlstress.reporters.console import print_realbugs

    print_realbugs(console, result)
    if stop:
        raise SystemExit(int(interrupted_code(stop.signum)))
    raise SystemExit(int(ExitCode.OK if result.passed else ExitCode.HANG))
