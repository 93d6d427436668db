"""`run`, `hunt`, `report`, `scenarios`: running waves and reading what they left."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Literal

import click
from rich.console import Console
from rich.markup import escape

from gvlstress import api
from gvlstress.api.hunt import DEFAULT as HUNT_DEFAULT
from gvlstress.campaign import shards as campaign
from gvlstress.cli.group import cli
from gvlstress.cli.options import (
    EXIT_CODES,
    MAX_WAVES,
    PROBABILITY,
    RUN_EXAMPLES,
    _duration,
    _options,
    _sprt,
    exit_code_for,
    scenario_from_options,
)
from gvlstress.cli.terminal import make_console, stop_on_signals
from gvlstress.errors import UsageError
from gvlstress.reporters.console import (
    ConsoleObserver,
    print_hunt,
    print_like,
    print_summary,
)
from gvlstress.scenario import Scenario, describe, list_scenarios


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
    show_like(console, scenario)
    with stop_on_signals() as stop:
        observer = ConsoleObserver(console, live=console.is_terminal)
        result = api.run(
            scenario, observer=observer, stop=stop, command=tuple(["gvlstress", *sys.argv[1:]]), shard=part
        )
    print_summary(console, result, result.run_dir)
    raise SystemExit(int(exit_code_for(result)))


def show_like(console: Console, scenario: Scenario) -> None:
    """``--like``: each condition of the profile's host as it will be recreated (or not), before
    anything starts (a profile that cannot be read stops the command here)."""
    if scenario.like:
        print_like(console, api.recreate(scenario)[1])


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
    raise SystemExit(int(exit_code_for(result.run)))


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
