"""`compare`, `merge`, `sweep`, `slurm`, `plan`: campaigns of many waves."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from gvlstress import api, extras
from gvlstress.campaign import sweep as sweep_mod
from gvlstress.cli.group import cli
from gvlstress.cli.help import TakesRunOptions, usage
from gvlstress.cli.options import (
    PROBABILITY,
    _options_but,
    exit_code_for,
    scenario_from_options,
    shared_options,
)
from gvlstress.cli.run import run, show_like
from gvlstress.cli.terminal import interrupted_code, make_console, stop_on_signals
from gvlstress.errors import ExitCode, UsageError
from gvlstress.reporters.console import (
    SweepBar,
    print_compare,
    print_hosts,
    print_plan,
    print_slurm,
    print_summary,
    print_sweep,
    shown_path,
)
from gvlstress.targets.registry import get_target


@cli.command(
    epilog=usage(
        "compare",
        "gvlstress compare reports/A reports/B",
        "gvlstress compare --sequential --ratio 4 reports/gvl-0.36 reports/gvl-0.43",
        exits=((ExitCode.OK, "compared"), (ExitCode.USAGE, "fewer than two runs or a bad run directory")),
    )
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
    "--alpha", type=PROBABILITY, default=0.05, show_default=True, help="SPRT: P(decide H1 | equal rates)."
)
@click.option(
    "--beta",
    type=PROBABILITY,
    default=0.05,
    show_default=True,
    help="SPRT: P(decide H0 | odds ratio is --ratio).",
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
    if seq is not None:
        extras.need("stats", "gvlstress compare --sequential")
    if seq is not None and not ratio > 1:
        raise UsageError(f"--ratio {ratio:g}: must be above 1", hint="e.g. --ratio 4")
    result, path = api.compare(list(run_dirs), output, Path(report_dir), seq)
    print_compare(make_console(), result, str(path))


@cli.command(
    epilog=usage(
        "merge",
        "gvlstress merge shards/*/ --output merged    # one run directory per shard",
        exits=(
            (ExitCode.HANG, "the merged run has a hang"),
            (ExitCode.OK, "none"),
            (ExitCode.USAGE, "bad or mismatched inputs"),
            (ExitCode.ENVIRONMENT, "cannot write"),
        ),
    )
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
    print_summary(console, result, shown_path(result.path or result.run_dir))
    raise SystemExit(int(exit_code_for(result)))


@cli.command(
    cls=TakesRunOptions,
    shared=shared_options() - {"workers", "rayon"},
    epilog=usage(
        "sweep",
        "gvlstress sweep --workers 1,2,5 --rayon 2,4,8,16 --fault lock_order -o window_us=0",
        "gvlstress sweep --workers 1 --rayon 2,4 --amplifiers none,chaos --fault lock_order",
        exits=(
            (ExitCode.HANG, "some cell hung"),
            (ExitCode.OK, "none"),
            (ExitCode.USAGE, "bad options"),
            (ExitCode.ENVIRONMENT, "cannot write"),
            (ExitCode.INTERRUPTED, "interrupted (143: SIGTERM)"),
        ),
    ),
)
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
    extras.need("stats", "gvlstress sweep")
    workers = sweep_mod.parse_list(workers_list, "--workers", "workers")
    rayon = sweep_mod.parse_list(rayon_list, "--rayon", "rayon")
    amps = sweep_mod.parse_amplifiers(amplifiers)
    base = scenario_from_options(**opts)
    console = make_console()
    show_like(console, base)
    with stop_on_signals() as stop, SweepBar(console) as bar:
        result = api.sweep(base, workers, rayon, amps, bar, stop, tuple(["gvlstress", *sys.argv[1:]]))
    print_sweep(console, result)
    if stop:
        raise SystemExit(int(interrupted_code(stop.signum)))
    raise SystemExit(int(ExitCode.HANG if any(c.hung for c in result.cells) else ExitCode.OK))


@cli.command(
    context_settings={"ignore_unknown_options": True},
    epilog=usage(
        "slurm",
        "gvlstress slurm --shards 50 --dir campaign --submit -- --scenario gvl-issue-263 --waves 1000",
        exits=(
            (ExitCode.OK, "written (and submitted)"),
            (ExitCode.USAGE, "bad options"),
            (ExitCode.ENVIRONMENT, "cannot write or submit"),
        ),
        notes="The options after -- are run's, checked here (a typo fails now, not on fifty nodes).",
    ),
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
    epilog=usage(
        "plan",
        "gvlstress plan --rate 0.001",
        "gvlstress plan --rate 0.01 --from reports/RUN --hosts 20",
        exits=((ExitCode.OK, "planned"), (ExitCode.USAGE, "bad numbers or run directory")),
    )
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
