"""The options `run`, `hunt`, `sweep` and `slurm` share (one list, not copies), parsed into a
Scenario; the exit code a run's result means; the shared value parsers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gvlstress.cli.terminal import interrupted_code
from gvlstress.errors import ExitCode, UsageError
from gvlstress.model.verdicts import Verdict
from gvlstress.scenario import KILL_WORKER, START_METHODS, Scenario
from gvlstress.scenario_sources import resolve

if TYPE_CHECKING:  # what runs a command is imported where it runs: `--help` needs none of it
    from gvlstress.campaign import stats
    from gvlstress.model import RunResult

F = TypeVar("F", bound=Callable[..., Any])


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
    """Every shared option, in --help order. One line of help each, so `run --help` fits one
    screen; what each does at length is in the documentation's task pages."""
    return [
        _opt(
            "--scenario",
            "scenario_ref",
            metavar="NAME|PATH",
            help="A TOML scenario; options here override it.",
        ),
        _opt(
            "--target",
            metavar="NAME",
            help=f"What workers iterate; MODULE:CALLABLE is yours [default: {D.target}].",
        ),
        _opt("--workers", type=int, metavar="N", help=f"Worker processes per wave [default: {D.workers}]."),
        _opt(
            "--rayon",
            type=int,
            metavar="N",
            help="Threads per worker: RAYON_NUM_THREADS, set before the import.",
        ),
        _opt(
            "--thread-env",
            "thread_env",
            multiple=True,
            metavar="NAME",
            help="One more variable --rayon sets, e.g. POLARS_MAX_THREADS.",
        ),
        _opt("--inherit-rayon", type=int, metavar="N", help="Workers are born with RAYON_NUM_THREADS=N."),
        _opt(
            "--waves", type=int, metavar="N", help=f"Launches, each of fresh processes [default: {D.waves}]."
        ),
        _opt(
            "--iterations",
            type=int,
            metavar="N",
            help=f"Batches per worker per wave [default: {D.iterations}].",
        ),
        _opt("--duration", type=float, metavar="SECONDS", help="Iterate this long per wave instead."),
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
            help="Heartbeat silence before a probe [default: adaptive].",
        ),
        _opt(
            "--stall-floor",
            type=float,
            metavar="SECONDS",
            help=f"The adaptive stall's floor (10x the slowest batch) [default: {D.stall_floor:g}].",
        ),
        _opt(
            "--startup-grace",
            type=float,
            metavar="SECONDS",
            help=f"Allowance for spawn, import and open [default: {D.startup_grace:g}].",
        ),
        _opt(
            "--start-method",
            type=click.Choice(START_METHODS),
            metavar="METHOD",
            help=f"{', '.join(START_METHODS)} [default: {D.start_method}].",
        ),
        _opt("--fault", metavar="MODE", help="The native loader's fault mode, e.g. lock_across_par_iter."),
        _opt(
            "--fault-rate",
            type=float,
            metavar="P",
            help=f"Probability per batch of the fault [default: {D.fault_rate:g}].",
        ),
        _opt("--seed", type=int, metavar="N", help=f"Seed for data and fault draws [default: {D.seed}]."),
        _opt("--report-dir", metavar="DIR", help=f"Where run directories go [default: {D.report_dir}]."),
        _opt("--python", metavar="PATH", help="The workers' interpreter, e.g. another venv (spawn only)."),
        _opt(
            "--like",
            metavar="FILE",
            help="Recreate the host a profile describes (doctor --export there).",
        ),
        _opt(
            "--warm-parent",
            is_flag=True,
            default=None,
            help="Warm the target in the supervisor, then fork (fork only).",
        ),
        _opt("--preload", is_flag=True, default=None, help="Import the target once in the fork server."),
        _opt(
            "--squeeze",
            type=int,
            metavar="CPUS",
            help="Amplifier: all of a worker's threads on this many CPUs.",
        ),
        _opt(
            "--cpu-quota",
            type=float,
            metavar="CORES",
            help="Amplifier: the workers in a cgroup with this quota.",
        ),
        _opt(
            "--chaos", type=int, metavar="SEED", help="Amplifier: stop threads at random, as rr's chaos mode."
        ),
        _opt(
            "--delays", type=int, metavar="SEED", help="Amplifier: delay a seeded few futex waits and wakes."
        ),
        _opt(
            "--switch-interval",
            type=float,
            metavar="SECONDS",
            help="Amplifier: each worker's sys.setswitchinterval.",
        ),
        _opt("--gang", type=int, metavar="MS", help="Amplifier: one worker at a time runs, turns of ~MS ms."),
        _opt("--burners", type=int, metavar="N", help="Amplifier: N CPU-burning neighbour processes."),
        _opt("--result-bytes", metavar="SIZE", help="Each worker's task returns this many bytes (e.g. 64M)."),
        _opt("--memory-limit", metavar="SIZE", help="The wave's workers in a memory cgroup this size."),
        _opt(
            "--kill-worker",
            type=click.Choice(KILL_WORKER),
            metavar="|".join(KILL_WORKER),
            help="SIGKILL a worker per wave: at a random batch, or mid-send.",
        ),
        _opt(
            "--keep-core",
            is_flag=True,
            default=None,
            help="Keep a gzip core of each hung worker (holds its memory).",
        ),
        _opt(
            "--core-limit",
            metavar="SIZE",
            help=f"Memory kept per core, largest mappings left out [default: {D.core_limit >> 20}M].",
        ),
        _opt(
            "--warm-up/--no-warm-up",
            "warm_up",
            default=None,
            help="Open the target once first, if it asks [default: on].",
        ),
        _opt(
            "-o",
            "--option",
            "target_options",
            multiple=True,
            metavar="KEY=VALUE",
            help="A target option, e.g. -o slow_ms=2500 (repeatable).",
        ),
    ]


def shared_options() -> frozenset[str]:
    """The parameter names of the shared options (what `TakesRunOptions` lists by name)."""

    def probe() -> None:
        """Carries the options, to read their names."""

    decorated: Any = _options(probe)
    return frozenset(p.name for p in decorated.__click_params__)


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
        from gvlstress.campaign import stats  # here: only hunt --sequential needs it

        return stats.Sprt(p0, p1, alpha, beta)
    except ValueError as exc:
        raise UsageError(
            f"--sequential {text!r}: {exc}"
            if "need" in str(exc)
            else f"--sequential {text!r}: expected P0,P1",
            hint="e.g. --sequential 0.001,0.02 (rates per wave, P0 < P1)",
        ) from None


def duration(text: str, option: str = "--budget") -> float:
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


class _Ratio(_FloatParam):
    """How many times lower a sequential test's H0 is: a finite number above 1 and at most
    `MAX_RATIO` (inf would state no test; NaN passes every click range)."""

    name = "ratio"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            x = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        from gvlstress.campaign.shrink import MAX_RATIO  # here: a command's --help needs none of it

        if not 1 < x <= MAX_RATIO:  # False for NaN too
            self.fail(f"{value!r} is not above 1 and at most {MAX_RATIO:g}", param, ctx)
        return x


RATIO_TYPE = _Ratio()

MAX_WAVES = 10_000
