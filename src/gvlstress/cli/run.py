"""`run`, `hunt`, `report`, `scenarios`: running waves and reading what they left."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click
from rich.markup import escape

from gvlstress import api, extras
from gvlstress.cli.group import cli
from gvlstress.cli.help import TakesRunOptions, usage
from gvlstress.cli.options import (
    MAX_WAVES,
    PROBABILITY,
    _options,
    _sprt,
    duration,
    exit_code_for,
    scenario_from_options,
    shared_options,
)
from gvlstress.cli.terminal import make_console, stop_on_signals
from gvlstress.errors import ExitCode, UsageError

if TYPE_CHECKING:  # what runs a command is imported inside it: `--help` and the others skip it
    from rich.console import Console

    from gvlstress.scenario import Scenario

RUN_EXITS = (
    ExitCode.OK,
    ExitCode.HANG,
    ExitCode.USAGE,
    ExitCode.WORKER_FAILED,
    ExitCode.ENVIRONMENT,
    (ExitCode.INTERRUPTED, "Ctrl-C (143: SIGTERM)"),
)


@cli.command(
    epilog=usage(
        "run",
        "gvlstress run --workers 5 --rayon 16",
        "gvlstress run --fault lock_across_par_iter --fault-rate 0.02 --waves 10",
        exits=RUN_EXITS,
    )
)
@_options
@click.option(
    "--shard",
    metavar="I/N|auto",
    help="Only waves I, I+N, ... (auto: a Slurm array's task); then merge.",
)
def run(shard: str | None, **opts: Any) -> None:
    """Launch waves of spawned workers that iterate a loader; catch, explain and survive hangs."""
    from gvlstress.campaign import shards as campaign
    from gvlstress.reporters.console import ConsoleObserver, print_summary, shown_path

    part = campaign.parse_shard(shard) if shard else None
    scenario = scenario_from_options(**opts)
    console = make_console()
    show_like(console, scenario)
    with stop_on_signals() as stop:
        observer = ConsoleObserver(console, live=console.is_terminal)
        result = api.run(
            scenario, observer=observer, stop=stop, command=tuple(["gvlstress", *sys.argv[1:]]), shard=part
        )
    print_summary(console, result, shown_path(result.path or result.run_dir))
    raise SystemExit(int(exit_code_for(result)))


def show_like(console: Console, scenario: Scenario) -> None:
    """``--like``: each condition of the profile's host as it will be recreated (or not), before
    anything starts (a profile that cannot be read stops the command here)."""
    if scenario.like:
        from gvlstress.reporters.console import print_like

        print_like(console, api.recreate(scenario)[1])


@cli.command(
    cls=TakesRunOptions,
    shared=shared_options(),
    epilog=usage(
        "hunt",
        "gvlstress hunt --fault lock_order -o window_us=0 --workers 1 --rayon 4 --budget 10m",
        "gvlstress hunt --target mymodule:batches --rayon 16 --squeeze 1 --explore --budget 1h --shrink",
        exits=((ExitCode.HANG, "a hang was found"), (ExitCode.OK, "none within the budget"), *RUN_EXITS[2:]),
    ),
)
@_options
@click.option(
    "--until",
    "until_hangs",
    type=click.IntRange(1, 10_000),
    default=None,
    metavar="N",
    help="Stop after this many hung waves [default: 1; --explore: the budget].",
)
@click.option("--budget", metavar="TIME", help="Stop starting waves after this long (90, 90s, 30m, 2h).")
@click.option(
    "--max-waves",
    type=click.IntRange(1, 1_000_000),
    default=MAX_WAVES,
    show_default=True,
    metavar="N",
    help="Stop after this many waves.",
)
@click.option(
    "--keep-alive",
    metavar="TIME",
    help="Keep the first hung worker this long, for a debugger (e.g. 10m).",
)
@click.option(
    "--explore",
    "explore_settings",
    is_flag=True,
    help="Spread waves over settings, favouring the most hangs per CPU-minute.",
)
@click.option(
    "--sequential",
    metavar="P0,P1",
    help="Stop once Wald's SPRT decides: hang rate <= P0 or >= P1.",
)
@click.option(
    "--shrink",
    "then_shrink",
    is_flag=True,
    help="Once a hang is found, shrink it (gvlstress shrink RUN_DIR with its defaults): the smallest "
    "setting that still hangs and a standalone reproducer.",
)
@click.option(
    "--alpha", type=PROBABILITY, default=0.05, show_default=True, help="SPRT: P(decide >= P1 | rate is P0)."
)
@click.option(
    "--beta", type=PROBABILITY, default=0.05, show_default=True, help="SPRT: P(decide <= P0 | rate is P1)."
)
def hunt(
    until_hangs: int | None,
    budget: str | None,
    max_waves: int,
    keep_alive: str | None,
    explore_settings: bool,
    sequential: str | None,
    then_shrink: bool,
    alpha: float,
    beta: float,
    **opts: Any,
) -> None:
    """Launch waves until a hang (or --until N), a time budget or a wave cap; report the hazard."""
    from gvlstress.api.hunting import DEFAULT as HUNT_DEFAULT
    from gvlstress.reporters.console import ConsoleObserver, print_hunt

    extras.need("stats", "gvlstress hunt")
    test = _sprt(sequential, alpha, beta) if sequential else None
    if explore_settings and budget is None and max_waves == MAX_WAVES:
        raise UsageError("--explore needs --budget or --max-waves", hint="e.g. --explore --budget 20m")
    budget_s = duration(budget) if budget else None
    hangs: int | Literal["default"] = until_hangs if until_hangs is not None else HUNT_DEFAULT
    keep_s = duration(keep_alive, "--keep-alive") if keep_alive else None
    opts["waves"] = max_waves
    scenario = scenario_from_options(**opts)
    console = make_console()
    show_like(console, scenario)
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
    if then_shrink and result.hangs and result.run.interrupted_by is None:
        from gvlstress.api.shrinking import Budget
        from gvlstress.campaign.shrink import RATIO
        from gvlstress.cli.shrink import run_shrink

        console.print("")
        # the run directory on disk: its redacted form is for reports (it may name no real path)
        run_shrink(Path(result.run.path or result.run.run_dir), Budget(), None, RATIO, None, False)
    raise SystemExit(int(exit_code_for(result.run)))


@cli.command(
    epilog=usage(
        "report",
        "gvlstress report reports/20261122T101500Z-healthy --force",
        exits=(
            (ExitCode.OK, "written"),
            (ExitCode.USAGE, "not a run directory, or the report exists without --force"),
        ),
    )
)
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite an existing report.md / junit.xml.")
def report(run_dir: Path, force: bool) -> None:
    """Render report.md and junit.xml again from RUN_DIR/run.json."""
    paths = api.rerender(run_dir, force=force)
    console = make_console()
    for name, path in paths.items():
        console.print(f"{name}: {path}", markup=False)


@cli.command(epilog=usage("scenarios", "gvlstress scenarios", exits=((ExitCode.OK, "listed"),)))
def scenarios() -> None:
    """List scenario files (./scenarios and the built-in ones), one line each."""
    from gvlstress.scenario_sources import describe, list_scenarios

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
