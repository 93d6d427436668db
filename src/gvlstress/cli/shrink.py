"""`shrink`: cut a run that hung down to the smallest setting that still hangs, and write a
standalone reproducer of it."""

from __future__ import annotations

from pathlib import Path

import click

from gvlstress import api
from gvlstress.api.shrinking import MAX_LAUNCHES, STEP_LAUNCHES, Budget
from gvlstress.campaign.shrink import RATIO
from gvlstress.cli.group import cli
from gvlstress.cli.help import usage
from gvlstress.cli.options import PROBABILITY, RATIO_TYPE, duration
from gvlstress.cli.terminal import interrupted_code, make_console, stop_on_signals
from gvlstress.errors import ExitCode
from gvlstress.model.shrink import ShrinkResult
from gvlstress.reporters.console.paths import shown_path
from gvlstress.reporters.console.shrink import ShrinkView, print_shrink

SHRINK_EPILOG = usage(
    "shrink",
    "gvlstress shrink reports/20261125T101010Z-adhoc",
    "gvlstress shrink reports/RUN --budget 10m --max-launches 60",
    exits=(
        (ExitCode.HANG, "the smallest setting hangs (its reproducer hung on its own, or was not measured)"),
        (ExitCode.OK, "the reproducer did not hang when measured"),
        (ExitCode.USAGE, "bad input (RUN_DIR did not hang, shrink.json is another run's)"),
        (ExitCode.ENVIRONMENT, "cannot write"),
        (ExitCode.INTERRUPTED, "interrupted (the state is saved; run it again to resume)"),
    ),
    notes=(
        "Steps, one dimension at a time: the amplifiers only the harness can apply, the other\n"
        "amplifiers, the start method (to spawn), fewer workers, fewer threads, fewer batches (each\n"
        "bisected down to 1), each target option (back to its default). Each step runs until Wald's\n"
        "SPRT decides: kept when it still hangs at the stated rate, dropped when its rate is shown\n"
        "lower (--ratio times), not kept when undecided. The state is RUN_DIR/shrink.json: run the\n"
        "same command again to resume (--force starts over). Writes RUN_DIR/shrink.md, shrink.json\n"
        "and shrink/ (reproduce.py: stdlib and your loader only; scenario.toml; run.sh), and runs\n"
        "reproduce.py alone to measure its own hang rate."
    ),
)


@cli.command(epilog=SHRINK_EPILOG)
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--budget", default="30m", show_default=True, metavar="TIME", help="Stop starting steps after this long."
)
@click.option(
    "--max-launches",
    type=click.IntRange(1, 100_000),
    default=MAX_LAUNCHES,
    show_default=True,
    help="Stop starting launches after this many (this invocation).",
)
@click.option(
    "--step-launches",
    type=click.IntRange(1, 10_000),
    default=STEP_LAUNCHES,
    show_default=True,
    help="At most this many launches per step (undecided after them: not kept).",
)
@click.option(
    "--rate",
    type=PROBABILITY,
    help="The hang rate per launch the smallest setting must keep [default: the run's own, at most 0.9].",
)
@click.option(
    "--ratio",
    type=RATIO_TYPE,
    default=RATIO,
    show_default=True,
    help="H0 of each step: a rate this many times lower.",
)
@click.option(
    "--measure",
    type=click.IntRange(0, 1000),
    help="Launches of the standalone reproducer to measure its rate [default: enough to see a hang at its rate; 0: none].",
)
@click.option("--force", is_flag=True, help="Start over, discarding RUN_DIR/shrink.json.")
def shrink(
    run_dir: Path,
    budget: str,
    max_launches: int,
    step_launches: int,
    rate: float | None,
    ratio: float,
    measure: int | None,
    force: bool,
) -> None:
    """Cut a run that hung down to the smallest setting that still hangs; write a standalone reproducer."""
    limits = Budget(duration(budget), max_launches, step_launches)
    result = run_shrink(run_dir, limits, rate, ratio, measure, force)
    raise SystemExit(int(shrink_code(result)))


def run_shrink(
    run_dir: Path, limits: Budget, rate: float | None, ratio: float, measure: int | None, force: bool
) -> ShrinkResult:
    console = make_console()
    with stop_on_signals() as stop, ShrinkView(console) as view:
        result = api.shrink(run_dir, limits, rate, ratio, measure, view, stop, force)
    print_shrink(console, result, shown_path(str(run_dir)))
    if stop:
        raise SystemExit(int(interrupted_code(stop.signum)))
    return result


def shrink_code(result: ShrinkResult) -> ExitCode:
    m = result.measured
    if m is None or m.error:
        return ExitCode.HANG
    return ExitCode.HANG if m.rate.k else ExitCode.OK
