"""Campaign use cases: compare runs, merge shards, write Slurm arrays, sweep a grid, plan."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from gvlstress import store
from gvlstress.api.output import check_report_dir, new_run_dir, utc_now, write_reports
from gvlstress.api.running import run
from gvlstress.campaign import shards as campaign
from gvlstress.campaign import slurm as slurm_mod
from gvlstress.campaign import sweep as sweep_mod
from gvlstress.campaign.compare import compare as compare_runs
from gvlstress.errors import EnvironmentProblem, UsageError
from gvlstress.judge.audit import audit
from gvlstress.model import (
    Plan,
    RunResult,
    Verdict,
)
from gvlstress.model.campaign import Comparison, SlurmJobs, SweepResult
from gvlstress.reporters import markdown, plot
from gvlstress.reporters.files import write_atomic
from gvlstress.scenario import Scenario
from gvlstress.supervisor import StopFlag
from gvlstress.system.redact import redact_argv, redact_path
from gvlstress.targets.registry import recorded


def compare(
    run_dirs: list[Path],
    output: Path | None = None,
    report_dir: Path = Path("reports"),
    sequential: tuple[float, float, float] | None = None,
) -> tuple[Comparison, Path]:
    """Hang rates of runs side by side; also written as Markdown (to `output` or the report dir).
    With `sequential` (odds ratio, alpha, beta) and two runs: the SPRT on their wave pairs."""
    if len(run_dirs) < 2:
        raise UsageError("compare needs at least two run directories")
    if sequential is not None and len(run_dirs) != 2:
        raise UsageError("compare --sequential takes exactly two run directories")
    # each run is labelled by the directory it was given as (the path printed as given)
    runs = [replace(store.read(d, recorded), run_dir=str(d)) for d in run_dirs]
    result = compare_runs(runs)
    if sequential is not None:
        ratio, alpha, beta = sequential
        a, b = ([w.verdict.is_hang for w in sorted(r.waves, key=lambda w: w.index)] for r in runs)
        names = (result.runs[0].name, result.runs[1].name)
        try:
            seq = campaign.sequential_pairs(a, b, ratio, alpha, beta, names)
        except ValueError as exc:
            raise UsageError(f"compare --sequential: {exc}") from None
        result = replace(result, sequential=seq)
    if output is None:
        check_report_dir(report_dir)
        output = report_dir / f"{utc_now():%Y%m%dT%H%M%SZ}-compare.md"
    if output.exists():
        raise UsageError(f"{output} exists", hint="pass another --output")
    try:
        write_atomic(output, markdown.render_compare(result))
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write {output} ({exc.strerror})") from None
    return result, output


def merge(
    run_dirs: list[Path], output: Path, mixed: bool = False, command: tuple[str, ...] | None = None
) -> RunResult:
    """One run from shards (or any runs of one scenario): run.json, report.md and junit.xml in
    `output`, plus the inputs' raw captures. Writing the same merge again gives the same files."""
    if not run_dirs:
        raise UsageError("merge needs at least one run directory", hint="gvlstress merge DIR... --output DIR")
    resolved = [d.resolve() for d in run_dirs]
    if output.resolve() in resolved:
        raise UsageError(f"--output {output} is one of the inputs", hint="pass a new directory")
    runs = [replace(store.read(d, recorded), run_dir=str(d)) for d in run_dirs]
    argv = (
        command
        if command is not None
        else ("gvlstress", "merge", *map(str, run_dirs), "--output", str(output))
    )
    merged = campaign.merge(runs, str(output), redact_argv(argv), mixed)
    merged = replace(merged, audit=audit(merged))  # the merged run's own, computed once
    try:
        output.mkdir(parents=True, exist_ok=True)
        for d in dict.fromkeys(resolved):
            if (d / "workers").is_dir():
                shutil.copytree(d / "workers", output / "workers", dirs_exist_ok=True)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write {output} ({exc.strerror or exc})") from None
    write_reports(merged, output)
    return merged


def slurm(
    directory: Path,
    shards: int,
    run_args: tuple[str, ...],
    parallel: int | None = None,
    sbatch: tuple[str, ...] = (),
    submit: bool = False,
    waves: int | None = None,
) -> SlurmJobs:
    """A Slurm array of shards and its afterany merge job (the CLI checked the run options;
    `waves`, the campaign's total, bounds the shards)."""
    return slurm_mod.write(directory, shards, run_args, parallel, sbatch, submit, waves)


SweepProgress = Callable[[int, int, str], None]
"""Told before each cell: (cells done, cells in all, the cell's label)."""


def sweep(
    base: Scenario,
    workers: tuple[int, ...],
    rayon: tuple[int, ...],
    amplifiers: tuple[str, ...] = ("none",),
    progress: SweepProgress | None = None,
    stop: StopFlag | None = None,
    command: tuple[str, ...] | None = None,
) -> SweepResult:
    """One run per grid cell (its own run directory under the sweep's), then the hazard table
    and heatmap in the sweep's report.md. A stop signal ends the sweep after the current cell."""
    stop = stop if stop is not None else StopFlag()
    report_dir = check_report_dir(Path(base.report_dir))
    sweep_dir = new_run_dir(report_dir, f"sweep-{base.name}", utc_now())
    grid = sweep_mod.cells(
        dataclasses.replace(base, report_dir=str(sweep_dir / "cells")), workers, rayon, amplifiers
    )
    measured = []
    for i, (w, r, amp, sc) in enumerate(grid):
        if stop:
            break
        if progress is not None:
            progress(i, len(grid), f"{w} x {r}, {amp}")
        cell_run = run(sc, stop=stop, command=command)
        measured.append(sweep_mod.measure(w, r, amp, cell_run))
    if progress is not None:
        progress(len(measured), len(grid), "done")
    result = SweepResult(
        cells=tuple(measured),
        workers=workers,
        rayon=rayon,
        amplifiers=amplifiers,
        base=base.recorded(),
        sweep_dir=redact_path(str(sweep_dir)),
        heatmap=None,
        interrupted=bool(stop),
    )
    png = sweep_dir / "heatmap.png"
    if measured and plot.heatmap(result, png):
        result = dataclasses.replace(result, heatmap=str(png))
    write_atomic(sweep_dir / "report.md", markdown.render_sweep(result))
    return result


def plan(rate: float, confidence: float = 0.95, run_dir: Path | None = None, hosts: int = 1) -> Plan:
    """Clean waves needed to claim 'hang rate < `rate`' at `confidence`; with a run, its batches
    per wave and waves per hour give the batches and the time on one host and on `hosts`."""
    n = campaign.clean_launches(rate, confidence)
    if run_dir is None:
        return Plan(rate, confidence, n, hosts)
    run = store.read(run_dir, recorded)
    if not run.waves:
        raise UsageError(f"{run_dir} has no finished wave to measure", hint="pass a run that ran")
    wall = sum(w.wall_s for w in run.waves)
    batches = run.batches
    hung = sum(1 for w in run.waves if w.verdict.is_hang)
    return Plan(
        rate,
        confidence,
        n,
        hosts,
        run_dir=str(run_dir),
        batches_per_wave=batches / len(run.waves),
        waves_per_hour=3600 * len(run.waves) / wall if wall > 0 else None,
        done_clean=sum(1 for w in run.waves if w.verdict is Verdict.OK),
        hung=hung,
    )
