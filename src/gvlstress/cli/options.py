"""The options `run`, `hunt`, `sweep` and `slurm` share (one list, not copies), parsed into a
Scenario; the exit code a run's result means; the shared value parsers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gvlstress.campaign import stats
from gvlstress.cli.terminal import interrupted_code
from gvlstress.errors import ExitCode, UsageError
from gvlstress.model import RunResult, Verdict
from gvlstress.scenario import KILL_WORKER, START_METHODS, Scenario, resolve

F = TypeVar("F", bound=Callable[..., Any])


EXIT_CODES = """\b
Exit codes:
  0    nothing found (every wave ok or slow)
  1    a hang was found (deadlock, livelock or stalled worker)
  2    usage error (bad option, bad scenario file, unknown target or fault); your
       target raising while gvlstress imports or prepares it
  3    a worker crashed or raised: whatever your loader raises in a worker (any
       exception, however it prints), with report.md and run.json written
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
  gvlstress run --target genvarloader --like host.toml --workers 5 --waves 20
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
            "--like",
            metavar="FILE",
            help="Recreate the host a profile describes (`gvlstress doctor --export FILE` there): its "
            "CPU quota (the same fraction of the CPUs here), memory limit, thread knobs, pool size and "
            "start method, where the other settings leave their defaults; what cannot be made here "
            "(kernel, glibc, more cores) is printed and kept in run.json.",
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
            help="Amplifier: stop worker threads at random, one thread at a time (ptrace), in the "
            "manner of rr's chaos mode (seeded).",
        ),
        _opt(
            "--delays",
            type=int,
            metavar="SEED",
            help="Amplifier: preload a layer into each worker that delays a seeded 0.3% of its futex "
            "waits and wakes, sched_yield and pthread_mutex_lock calls by up to 400 us.",
        ),
        _opt(
            "--switch-interval",
            type=float,
            metavar="SECONDS",
            help="Amplifier: each worker's sys.setswitchinterval (CPython's default is 0.005): forced "
            "GIL hand-offs that often, inside every window a thread holds a lock across one.",
        ),
        _opt(
            "--gang",
            type=int,
            metavar="MS",
            help="Amplifier: one iterating worker at a time owns the machine, the others stopped, "
            "rotating every ~MS ms (e.g. 30).",
        ),
        _opt(
            "--burners",
            type=int,
            metavar="N",
            help="Amplifier: N CPU-burning neighbour processes during each wave.",
        ),
        _opt(
            "--result-bytes",
            metavar="SIZE",
            help="Each worker's task returns this many bytes (e.g. 64M), as a training task returns "
            "weights: the executor's result path carries what a user's does.",
        ),
        _opt(
            "--memory-limit",
            metavar="SIZE",
            help="Run the wave's workers in a memory cgroup of this size (e.g. 2G): the kernel's OOM "
            "killer picks a victim under pressure, and the report says so (root or a delegated cgroup).",
        ),
        _opt(
            "--kill-worker",
            type=click.Choice(KILL_WORKER),
            help="SIGKILL one worker per wave: at a random (seeded) batch, or while it is sending its result.",
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


if TYPE_CHECKING:
    _FloatParam = click.ParamType[float]
else:  # generic only in newer click; subscripting it at run time would fail on older ones
    _FloatParam = click.ParamType


class _Probability(_FloatParam):
    """An error rate of a sequential test: a number strictly between 0 and 1 (click's FloatRange
    lets NaN through: every comparison with NaN is false)."""

    name = "probability"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            x = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not 0 < x < 1:  # False for NaN too
            self.fail(f"{value!r} is not strictly between 0 and 1", param, ctx)
        return x


PROBABILITY = _Probability()

MAX_WAVES = 10_000
