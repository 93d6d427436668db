"""The command line: click options -> Scenario -> api.run -> reporters -> exit code.

This is the only module that prints errors and picks exit codes (see `main`).
"""

from __future__ import annotations

import math
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Literal, TypeVar, cast

import click
from rich.console import Console
from rich.markup import escape

from gvlstress import __version__, api
from gvlstress.api.hunt import DEFAULT as HUNT_DEFAULT
from gvlstress.campaign import shards as campaign
from gvlstress.campaign import stats
from gvlstress.campaign import sweep as sweep_mod
from gvlstress.controls.selftest import NAMES as _SELFTEST_NAMES
from gvlstress.errors import ExitCode, GvlstressError, StopNow, UsageError
from gvlstress.model import RunResult, Verdict
from gvlstress.reporters.console import (
    ConsoleObserver,
    SweepBar,
    print_checks,
    print_compare,
    print_hosts,
    print_hunt,
    print_inspect,
    print_plan,
    print_selftest,
    print_slurm,
    print_summary,
    print_sweep,
)
from gvlstress.scenario import START_METHODS, Scenario, describe, list_scenarios, resolve
from gvlstress.supervisor import StopFlag
from gvlstress.system.redact import redact_text
from gvlstress.targets.registry import get_target

F = TypeVar("F", bound=Callable[..., Any])


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


@contextmanager
def stop_on_signals() -> Iterator[StopFlag]:
    """Ctrl-C and SIGTERM set a flag the supervisor polls: it tears down and still reports. A
    second one stops at once (StopNow), for when what runs never looks at the flag."""
    stop = StopFlag()

    def handle(signum: int, _frame: object) -> None:
        if stop:
            raise StopNow(signum)
        stop.set(signum)

    previous = {sig: signal.signal(sig, handle) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def interrupted_code(signum: int | None) -> ExitCode:
    return ExitCode.TERMINATED if signum == signal.SIGTERM else ExitCode.INTERRUPTED


EXIT_CODES = """\b
Exit codes:
  0    nothing found (every wave ok or slow)
  1    a hang was found (deadlock, livelock or stalled worker)
  2    usage error (bad option, bad scenario file, unknown target or fault)
  3    a worker crashed or raised
  4    environment problem (native loader not built, report dir not writable or full, no /proc)
  70   internal error: a bug in gvlstress (one line; the traceback is saved to a file)
  130  interrupted by Ctrl-C (143: SIGTERM); run.json is still written
"""

RUN_EXAMPLES = """\b
Examples:
  gvlstress run --workers 5 --rayon 16
  gvlstress run --workers 5 --inherit-rayon 16 --waves 20
  gvlstress run --fault lock_across_par_iter --fault-rate 0.02 --waves 10
  gvlstress run --scenario healthy --timeout 30
  gvlstress run --fault slow -o slow_ms=2500 --stall-floor 1
"""

D = Scenario()


def _options(f: F) -> F:
    """Options shared by commands that resolve a Scenario (one list, not copies)."""
    return _options_but(())(f)


def _options_but(skip: tuple[str, ...]) -> Callable[[F], F]:
    """The shared options except those named in `skip` (e.g. sweep takes lists instead)."""

    def apply(f: F) -> F:
        for decls, opt in reversed(_option_list()):
            if not set(decls) & set(skip):
                f = opt(f)
        return f

    return apply


def _opt(*decls: str, **kwargs: Any) -> tuple[tuple[str, ...], Callable[[F], F]]:
    return decls, click.option(*decls, **kwargs)


def _option_list() -> list[tuple[tuple[str, ...], Callable[[F], F]]]:
    """Every shared option, in --help order."""
    opts = [
        _opt(
            "--scenario",
            "scenario_ref",
            metavar="NAME|PATH",
            help="TOML scenario (scenarios/); options given here override it.",
        ),
        _opt("--target", help=f"What workers iterate [default: {D.target}]."),
        _opt("--workers", type=int, help=f"Worker processes per wave [default: {D.workers}]."),
        _opt(
            "--rayon",
            type=int,
            help="Threads per worker (RAYON_NUM_THREADS set in the worker before the target is imported) [default: leave as is].",
        ),
        _opt(
            "--thread-env",
            "thread_env",
            multiple=True,
            metavar="NAME",
            help="Another variable --rayon sets in each worker (repeatable), e.g. POLARS_MAX_THREADS.",
        ),
        _opt(
            "--inherit-rayon",
            type=int,
            metavar="N",
            help="Workers are born with RAYON_NUM_THREADS=N in their environment, as from a base image.",
        ),
        _opt("--waves", type=int, help=f"Launches; each starts fresh worker processes [default: {D.waves}]."),
        _opt("--iterations", type=int, help=f"Batches per worker per wave [default: {D.iterations}]."),
        _opt(
            "--duration",
            type=float,
            metavar="SECONDS",
            help="Iterate for this long per wave instead of --iterations.",
        ),
        _opt(
            "--timeout",
            type=float,
            metavar="SECONDS",
            help=f"Launch deadline per wave [default: {D.timeout:g}].",
        ),
        _opt(
            "--stall",
            type=float,
            metavar="SECONDS",
            help=f"Heartbeat silence before a worker is probed [default: adaptive, {STALL_HELP}].",
        ),
        _opt(
            "--stall-floor",
            type=float,
            metavar="SECONDS",
            help=f"Lowest adaptive stall threshold [default: {D.stall_floor:g}].",
        ),
        _opt(
            "--startup-grace",
            type=float,
            metavar="SECONDS",
            help=f"Allowance for spawn + import + open [default: {D.startup_grace:g}].",
        ),
        _opt(
            "--start-method",
            type=click.Choice(START_METHODS),
            help=f"Worker start method [default: {D.start_method}].",
        ),
        _opt("--fault", help="Fault mode of the native loader (none, lock_across_par_iter, slow, ...)."),
        _opt(
            "--fault-rate",
            type=float,
            help=f"Probability per batch that the fault fires [default: {D.fault_rate:g}].",
        ),
        _opt("--seed", type=int, help=f"Seed for data and fault draws [default: {D.seed}]."),
        _opt("--report-dir", metavar="DIR", help=f"Where run directories go [default: {D.report_dir}]."),
        _opt(
            "--python",
            metavar="PATH",
            help="Interpreter for the workers, e.g. a venv with another version of your loader "
            "(spawn only; the target is imported from its environment; run.json records it).",
        ),
        _opt(
            "--warm-parent",
            is_flag=True,
            default=None,
            help="Run one batch (or the target's warm()) in the supervisor before the waves, so forked "
            "workers inherit started pools (the fork-after-init class; needs --start-method fork).",
        ),
        _opt(
            "--preload",
            is_flag=True,
            default=None,
            help="With --start-method forkserver: import the target once in the fork server, so waves "
            "skip interpreter start and imports (refused if that import starts a thread).",
        ),
        _opt(
            "--squeeze",
            type=int,
            metavar="CPUS",
            help="Amplifier: once a worker's pool exists, pin all its threads to this many CPUs.",
        ),
        _opt(
            "--cpu-quota",
            type=float,
            metavar="CORES",
            help="Amplifier: run the workers in a child cgroup with this CPU quota (root or a delegated cgroup).",
        ),
        _opt(
            "--chaos",
            type=int,
            metavar="SEED",
            help="Amplifier: starve worker threads at random in the manner of rr's chaos mode (seeded).",
        ),
        _opt(
            "--burners",
            type=int,
            metavar="N",
            help="Amplifier: N CPU-burning neighbour processes during each wave.",
        ),
        _opt(
            "--warm-up/--no-warm-up",
            "warm_up",
            default=None,
            help="Open the target once in one process before the first wave, when the target asks "
            "for it (fills on-disk JIT caches such as numba's before workers race on them) [default: on].",
        ),
        _opt(
            "-o",
            "--option",
            "target_options",
            multiple=True,
            metavar="KEY=VALUE",
            help="Target option, e.g. -o slow_ms=2500 (repeatable).",
        ),
    ]
    return opts


STALL_HELP = "10x the slowest batch seen, at least --stall-floor"


def _parse_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def scenario_from_options(
    scenario_ref: str | None, target_options: tuple[str, ...], **given: Any
) -> Scenario:
    """Parse step: CLI values that were given (not None) override the scenario file."""
    overrides = {k: v for k, v in given.items() if v is not None and v != ()}
    origin = {k: "--" + k.replace("_", "-") for k in overrides}
    if target_options:
        options: dict[str, Any] = {}
        for item in target_options:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise UsageError(f"--option {item!r}: expected KEY=VALUE")
            options[key.strip()] = _parse_value(value.strip())
        base = resolve(scenario_ref, {}) if scenario_ref else Scenario()
        overrides["options"] = {**base.options, **options}
    return resolve(scenario_ref, overrides, origin)


def exit_code_for(result: RunResult) -> ExitCode:
    if result.interrupted_by is not None:
        return interrupted_code(result.interrupted_by)
    waves = [w.verdict for w in result.waves]
    if any(v.is_hang for v in waves):
        return ExitCode.HANG
    if any(v in (Verdict.CRASH, Verdict.ERROR) for v in waves):
        return ExitCode.WORKER_FAILED
    return ExitCode.OK


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100}, epilog=EXIT_CODES
)
@click.version_option(__version__, prog_name="gvlstress")
def cli() -> None:
    """Reproduce, detect and explain deadlocks in native (rayon/PyO3) data loaders."""


@cli.command(epilog=RUN_EXAMPLES + "\n" + EXIT_CODES)
@_options
@click.option(
    "--shard",
    metavar="I/N|auto",
    help="Run only the campaign's global waves I, I+N, ... of --waves (auto: from a Slurm array or "
    "JOB_COMPLETION_INDEX with GVLSTRESS_SHARD_COUNT); merge the shards with `gvlstress merge`.",
)
def run(shard: str | None, **opts: Any) -> None:
    """Launch waves of spawned workers that iterate a loader; catch, explain and survive hangs."""
    part = campaign.parse_shard(shard) if shard else None
    scenario = scenario_from_options(**opts)
    console = make_console()
    with stop_on_signals() as stop:
        observer = ConsoleObserver(console, live=console.is_terminal)
        result = api.run(
            scenario, observer=observer, stop=stop, command=tuple(["gvlstress", *sys.argv[1:]]), shard=part
        )
    print_summary(console, result, result.run_dir)
    raise SystemExit(int(exit_code_for(result)))


def _sprt(text: str, alpha: float, beta: float) -> stats.Sprt:
    """'0.001,0.02' -> the SPRT of those rates (a bad pair is a usage error)."""
    try:
        p0, p1 = (float(x) for x in text.split(","))
        return stats.Sprt(p0, p1, alpha, beta)
    except ValueError as exc:
        raise UsageError(
            f"--sequential {text!r}: {exc}"
            if "need" in str(exc)
            else f"--sequential {text!r}: expected P0,P1",
            hint="e.g. --sequential 0.001,0.02 (rates per wave, P0 < P1)",
        ) from None


def _duration(text: str, option: str = "--budget") -> float:
    """'90', '90s', '30m', '2h' -> seconds."""
    units = {"s": 1.0, "m": 60.0, "h": 3600.0}
    value = text.strip().lower()
    scale = units.get(value[-1:])
    number = value[:-1] if scale else value
    try:
        seconds = float(number) * (scale or 1.0)
    except ValueError:
        raise UsageError(
            f"{option} {text!r}: expected seconds, or a number with s, m or h (e.g. 30m)"
        ) from None
    if not 1 <= seconds <= 30 * 86400:
        raise UsageError(f"{option} {text!r}: must be between 1 s and 30 days")
    return seconds


MAX_WAVES = 10_000

HUNT_EPILOG = """\b
Examples:
  gvlstress hunt --fault lock_order -o window_us=0 --workers 1 --rayon 4 --budget 10m
  gvlstress hunt --target mymodule:batches --rayon 16 --squeeze 1 --until 3 --budget 1h
  gvlstress hunt --fault lock_order -o window_us=0 --workers 1 --rayon 2 --explore --budget 20m
Exit codes: 1 a hang was found; 0 none within the budget; 2, 3, 4, 130 as for run.
"""


@cli.command(epilog=HUNT_EPILOG)
@_options
@click.option(
    "--until",
    "until_hangs",
    type=click.IntRange(1, 10_000),
    default=None,
    help="Stop after this many hung waves [default: 1; with --explore, only the budget stops it].",
)
@click.option("--budget", metavar="TIME", help="Stop starting waves after this long (90, 90s, 30m, 2h).")
@click.option(
    "--max-waves",
    type=click.IntRange(1, 1_000_000),
    default=MAX_WAVES,
    show_default=True,
    help="Stop after this many waves.",
)
@click.option(
    "--keep-alive",
    metavar="TIME",
    help="Leave the first hung worker running for a debugger this long (e.g. 10m); Ctrl-C ends it.",
)
@click.option(
    "--explore",
    "explore_settings",
    is_flag=True,
    help="Spread waves over settings (threads, workers, amplifiers), favouring the one with the most "
    "hangs per CPU-minute (Thompson sampling); rank them.",
)
@click.option(
    "--sequential",
    metavar="P0,P1",
    help="Stop as soon as Wald's SPRT decides the hang rate per wave is <= P0 or >= P1 (e.g. 0.001,0.02).",
)
@click.option(
    "--alpha", type=float, default=0.05, show_default=True, help="SPRT: P(decide >= P1 | rate is P0)."
)
@click.option(
    "--beta", type=float, default=0.05, show_default=True, help="SPRT: P(decide <= P0 | rate is P1)."
)
def hunt(
    until_hangs: int | None,
    budget: str | None,
    max_waves: int,
    keep_alive: str | None,
    explore_settings: bool,
    sequential: str | None,
    alpha: float,
    beta: float,
    **opts: Any,
) -> None:
    """Launch waves until a hang (or --until N), a time budget or a wave cap; report the hazard."""
    test = _sprt(sequential, alpha, beta) if sequential else None
    if explore_settings and budget is None and max_waves == MAX_WAVES:
        raise UsageError("--explore needs --budget or --max-waves", hint="e.g. --explore --budget 20m")
    budget_s = _duration(budget) if budget else None
    hangs: int | Literal["default"] = until_hangs if until_hangs is not None else HUNT_DEFAULT
    keep_s = _duration(keep_alive, "--keep-alive") if keep_alive else None
    opts["waves"] = max_waves
    scenario = scenario_from_options(**opts)
    console = make_console()
    with stop_on_signals() as stop:
        observer = ConsoleObserver(console, live=console.is_terminal)
        result = api.hunt(
            scenario,
            hangs,
            budget_s,
            observer,
            stop,
            tuple(["gvlstress", *sys.argv[1:]]),
            keep_s,
            explore_settings,
            test,
        )
    print_hunt(console, result)
    raise SystemExit(int(exit_code_for(result.run)))


INSPECT_EPILOG = """\b
Verdicts: idle (every thread waits, nothing implies a cycle), busy (burning CPU;
one look cannot tell a livelock from work: use --watch), stopped (SIGSTOP or a
tracer), stalled (no known shape), deadlock (a closed wait set that a named
pattern or a cycle across processes explains).
Exit codes: 0 captured (idle, busy, stopped, stalled); 1 deadlock; 2 bad pid;
4 cannot read /proc or write the report.
"""


@cli.command(epilog=INSPECT_EPILOG)
@click.argument("pid", type=int)
@click.option("--tree", is_flag=True, help="Also capture every descendant process (e.g. a pool's workers).")
@click.option(
    "--report-dir", default="reports", show_default=True, metavar="DIR", help="Where the report goes."
)
@click.option(
    "--watch",
    type=click.FloatRange(0.5, 3600),
    metavar="SECONDS",
    help="Sample /proc for this long: per-thread CPU, syscalls and wake-ups (busy-with-syscalls vs spinning).",
)
def inspect(pid: int, tree: bool, report_dir: str, watch: float | None) -> None:
    """Capture and explain a live process, such as a hung training job; it is never killed."""
    if watch is not None and not math.isfinite(watch):  # click's range lets NaN through
        raise UsageError(f"--watch: must be a finite number of seconds, got {watch!r}")
    console = make_console()
    result = api.inspect(
        pid, tree=tree, report_dir=Path(report_dir), command=tuple(["gvlstress", *sys.argv[1:]]), watch=watch
    )
    print_inspect(console, result)
    raise SystemExit(int(ExitCode.HANG if result.looks_deadlocked else ExitCode.OK))


@cli.command(epilog="\b\nExit codes: 0 a run would get full diagnostics; 4 something is missing.")
def doctor() -> None:
    """Check this host: py-spy and native-stack attach, ptrace policy, CPU budget, thread knobs."""
    from gvlstress.controls.doctor import healthy, run_checks

    console = make_console()
    checks = run_checks()
    print_checks(console, checks)
    raise SystemExit(int(ExitCode.OK if healthy(checks) else ExitCode.ENVIRONMENT))


SELFTEST_EPILOG = """\b
Exit codes: 0 every class caught and named and the negative controls clean;
1 a class was missed or misnamed (or a negative control raised a false alarm);
130/143 interrupted.
"""


@cli.command(epilog=SELFTEST_EPILOG)
@click.option(
    "--only",
    "only",
    multiple=True,
    type=click.Choice(_SELFTEST_NAMES),
    help="Run only this class (repeatable).",
)
@click.option(
    "--repeat", type=click.IntRange(1, 1000), default=1, show_default=True, help="Runs per class (fidelity)."
)
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--rayon", type=click.IntRange(1, 256), default=8, show_default=True)
@click.option("--report-dir", default="reports", show_default=True, metavar="DIR")
def selftest(only: tuple[str, ...], repeat: int, workers: int, rayon: int, report_dir: str) -> None:
    """Prove this host catches every known failure class (run before trusting a clean run)."""
    console = make_console()

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


@cli.command(
    epilog="\b\nExamples:\n  gvlstress compare reports/A reports/B\n"
    "  gvlstress compare --sequential --ratio 4 reports/gvl-0.36 reports/gvl-0.43\n"
    "Exit codes: 0 compared; 2 fewer than two runs or a bad run directory."
)
@click.argument("run_dirs", nargs=-1, type=click.Path(file_okay=False, path_type=Path))
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path), help="Markdown file to write.")
@click.option(
    "--report-dir",
    default="reports",
    show_default=True,
    metavar="DIR",
    help="Where the Markdown goes without --output.",
)
@click.option(
    "--sequential",
    is_flag=True,
    help="Two runs: Wald's SPRT on their waves paired in order - does the first hang more often?",
)
@click.option(
    "--ratio",
    type=float,
    default=4.0,
    show_default=True,
    help="SPRT: the odds ratio H1 claims (first vs second).",
)
@click.option(
    "--alpha", type=float, default=0.05, show_default=True, help="SPRT: P(decide H1 | equal rates)."
)
@click.option(
    "--beta", type=float, default=0.05, show_default=True, help="SPRT: P(decide H0 | odds ratio is --ratio)."
)
def compare(
    run_dirs: tuple[Path, ...],
    output: Path | None,
    report_dir: str,
    sequential: bool,
    ratio: float,
    alpha: float,
    beta: float,
) -> None:
    """Hang rates of runs side by side (95% intervals, Fisher's exact test), e.g. two versions."""
    seq = (ratio, alpha, beta) if sequential else None
    if seq is not None and not ratio > 1:
        raise UsageError(f"--ratio {ratio:g}: must be above 1", hint="e.g. --ratio 4")
    result, path = api.compare(list(run_dirs), output, Path(report_dir), seq)
    print_compare(make_console(), result, str(path))


@cli.command(
    epilog="\b\nExample (after a Slurm array or a CI matrix wrote one run directory per shard):\n"
    "  gvlstress merge shards/*/ --output merged\n"
    "Exit codes: 1 the merged run has a hang; 0 none; 2 bad or mismatched inputs; 4 cannot write."
)
@click.argument("run_dirs", nargs=-1, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--output", required=True, type=click.Path(file_okay=False, path_type=Path), help="Directory to write."
)
@click.option(
    "--mixed",
    is_flag=True,
    help="Merge runs of different scenarios anyway (a warning lists the differences).",
)
def merge(run_dirs: tuple[Path, ...], output: Path, mixed: bool) -> None:
    """One run from many (shards of a campaign): waves, hosts and an odd-host test; reports."""
    result = api.merge(list(run_dirs), output, mixed, tuple(["gvlstress", *sys.argv[1:]]))
    console = make_console()
    print_hosts(console, result)
    print_summary(console, result, result.run_dir)
    raise SystemExit(int(exit_code_for(result)))


SWEEP_EPILOG = """\b
Examples:
  gvlstress sweep --workers 1,2,5 --rayon 2,4,8,16 --fault lock_order -o window_us=0 --iterations 300
  gvlstress sweep --workers 1 --rayon 2,4 --amplifiers none,chaos,burners --fault lock_order -o window_us=0
Exit codes: 1 some cell hung; 0 none; 2 bad options; 4 cannot write; 130/143 interrupted.
"""


@cli.command(epilog=SWEEP_EPILOG)
@_options_but(("--workers", "--rayon"))
@click.option(
    "--workers",
    "workers_list",
    default="1,2",
    show_default=True,
    metavar="LIST",
    help="Workers per wave, e.g. 1,2,5.",
)
@click.option(
    "--rayon",
    "rayon_list",
    default="2,4",
    show_default=True,
    metavar="LIST",
    help="Threads per pool, e.g. 2,4,8,16.",
)
@click.option(
    "--amplifiers",
    default="none",
    show_default=True,
    metavar="LIST",
    help=f"Amplifier presets to cross with the grid: {', '.join(sweep_mod.AMPLIFIERS)}.",
)
def sweep(workers_list: str, rayon_list: str, amplifiers: str, **opts: Any) -> None:
    """One run per cell of workers x threads (x amplifiers): hazard table and heatmap."""
    workers = sweep_mod.parse_list(workers_list, "--workers", "workers")
    rayon = sweep_mod.parse_list(rayon_list, "--rayon", "rayon")
    amps = sweep_mod.parse_amplifiers(amplifiers)
    base = scenario_from_options(**opts)
    console = make_console()
    with stop_on_signals() as stop, SweepBar(console) as bar:
        result = api.sweep(base, workers, rayon, amps, bar, stop, tuple(["gvlstress", *sys.argv[1:]]))
    print_sweep(console, result)
    if stop:
        raise SystemExit(int(interrupted_code(stop.signum)))
    raise SystemExit(int(ExitCode.HANG if any(c.hung for c in result.cells) else ExitCode.OK))


@cli.command(
    context_settings={"ignore_unknown_options": True},
    epilog="\b\nExample (run options after --):\n"
    "  gvlstress slurm --shards 50 --parallel 10 --dir campaign --sbatch=--partition=cpu --submit \\\n"
    "      -- --target genvarloader --workers 5 --rayon 16 --waves 1000\n"
    "Exit codes: 0 written (and submitted); 2 bad options; 4 cannot write or submit.",
)
@click.option("--shards", type=int, required=True, help="Array tasks; --waves is the total across them.")
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Where scripts, logs, shards and the merge go.",
)
@click.option(
    "--parallel", type=click.IntRange(1, 100_000), help="At most this many shards at once (--array=...%K)."
)
@click.option(
    "--sbatch",
    "sbatch_args",
    multiple=True,
    metavar="ARG",
    help="Extra #SBATCH line, e.g. --sbatch=--partition=cpu (repeatable).",
)
@click.option("--submit", is_flag=True, help="Submit the array and its afterany merge job now.")
@click.argument("run_args", nargs=-1, type=click.UNPROCESSED)
def slurm(
    shards: int,
    directory: Path,
    parallel: int | None,
    sbatch_args: tuple[str, ...],
    submit: bool,
    run_args: tuple[str, ...],
) -> None:
    """Write (and optionally submit) a Slurm array of `run --shard auto` plus an afterany merge job."""
    # the run options are parsed and resolved now: a typo fails here, not on fifty nodes
    with run.make_context("run", ["--shard", "0/1", *run_args]) as ctx:
        params = dict(ctx.params)
    params.pop("shard", None)
    scenario = scenario_from_options(**params)
    get_target(scenario.target)  # the target must import here too (not prepared: that builds data)
    jobs = api.slurm(directory, shards, run_args, parallel, sbatch_args, submit, waves=scenario.waves)
    print_slurm(make_console(), jobs)


@cli.command(
    epilog="\b\nExamples:\n  gvlstress plan --rate 0.001\n  gvlstress plan --rate 0.01 --from reports/RUN --hosts 20\n"
    "Exit codes: 0 planned; 2 bad numbers or run directory."
)
@click.option("--rate", type=float, required=True, help="The hang rate per wave to bound (0.01 = 1%).")
@click.option("--confidence", type=float, default=0.95, show_default=True, help="Confidence of the claim.")
@click.option(
    "--from",
    "run_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="A run to measure batches per wave and waves per hour on.",
)
@click.option(
    "--hosts",
    type=click.IntRange(1, 100_000),
    default=1,
    show_default=True,
    help="Hosts (shards) to spread over.",
)
def plan(rate: float, confidence: float, run_dir: Path | None, hosts: int) -> None:
    """Clean waves needed to claim 'hang rate < RATE', and the batches and time that takes."""
    print_plan(make_console(), api.plan(rate, confidence, run_dir, hosts))


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite an existing report.md / junit.xml.")
def report(run_dir: Path, force: bool) -> None:
    """Render report.md and junit.xml again from RUN_DIR/run.json."""
    paths = api.rerender(run_dir, force=force)
    console = make_console()
    for name, path in paths.items():
        console.print(f"{name}: {path}", markup=False)


@cli.command()
def scenarios() -> None:
    """List scenario files (./scenarios and the built-in ones), one line each."""
    console = make_console()
    paths = list_scenarios()
    if not paths:
        console.print("no scenario files found")
        return
    width = max(len(p.stem) for p in paths)
    for p in paths:
        console.print(f"{escape(p.stem):<{width}}  {escape(describe(p))}  [dim]({escape(_short(p))})[/]")


def _short(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _save_traceback() -> str:
    """The current exception's traceback in a file of its own (the run directory may not exist)."""
    import tempfile
    import traceback

    try:
        fd, path = tempfile.mkstemp(prefix="gvlstress-internal-error-", suffix=".txt")
        with open(fd, "w", encoding="utf-8") as fh:
            fh.write(redact_text(traceback.format_exc()))
        return path
    except OSError:
        return "(could not be written)"


def main(argv: list[str] | None = None) -> None:
    """The error funnel: every expected failure becomes one line on stderr and its exit code."""
    err = make_console(stderr=True)
    try:
        code = cli.main(args=argv, prog_name="gvlstress", standalone_mode=False)
    except GvlstressError as exc:
        hint = f" (hint: {redact_text(exc.hint)})" if exc.hint else ""
        err.print(f"gvlstress: error: {redact_text(exc.message)}{hint}", markup=False)
        raise SystemExit(int(exc.exit_code)) from None
    except click.exceptions.NoArgsIsHelpError as exc:
        err.print(exc.format_message(), markup=False)
        raise SystemExit(int(ExitCode.USAGE)) from None
    except click.ClickException as exc:  # click's own usage errors, in the same style as ours
        ctx = getattr(exc, "ctx", None)
        cmd = (
            f"gvlstress {ctx.info_name}" if ctx is not None and ctx.info_name != "gvlstress" else "gvlstress"
        )
        err.print(f"gvlstress: error: {redact_text(exc.format_message())} (hint: {cmd} --help)", markup=False)
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
        where = f" ({exc.filename})" if exc.filename else ""
        err.print(
            f"gvlstress: error: cannot write or read{where}: {exc.strerror or exc} "
            "(hint: free space or pass --report-dir with a writable directory)",
            markup=False,
        )
        raise SystemExit(int(ExitCode.ENVIRONMENT)) from None
    except Exception as exc:  # a bug: say so in one line, keep the traceback for the report
        path = _save_traceback()
        err.print(
            f"gvlstress: internal error: {type(exc).__name__}: {redact_text(str(exc)[:300])} "
            f"(a bug in gvlstress; traceback in {path}; please report it)",
            markup=False,
        )
        raise SystemExit(int(ExitCode.INTERNAL)) from None
    raise SystemExit(int(code or 0))
