"""What each command prints when it is done: summaries, tables and where the files went."""

from __future__ import annotations

import math

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from gvlstress.model import (
    Check,
    HuntResult,
    InspectResult,
    Plan,
    RunResult,
    plural,
)
from gvlstress.model.campaign import Comparison, SlurmJobs, SweepResult
from gvlstress.model.controls import SELFTEST_HEADER, RealBugsResult, SelftestResult
from gvlstress.model.profile import HostProfile, Recreation
from gvlstress.reporters.cells import (
    COMPARE_HEADER,
    REALBUG_HEADER,
    arm_cells,
    compare_rows,
    pair_lines,
    realbug_cells,
    sequential_lines,
)
from gvlstress.reporters.chain import end_line, fix_line
from gvlstress.reporters.console.live import verdict_text
from gvlstress.reporters.console.paths import shown_path
from gvlstress.reporters.like import condition_rows, host_table, profile_lines
from gvlstress.reporters.markdown.cores import mib
from gvlstress.system.text import clip, one_line


def print_sweep(console: Console, r: SweepResult) -> None:
    """The hazard per cell, and where the report and heatmap went."""
    table = Table(title="hangs per 1000 batches [95% CI] (hung/waves)")
    table.add_column("workers x threads")
    for amp in r.amplifiers:
        table.add_column(amp)
    cells = {(c.amplifier, c.workers, c.rayon): c for c in r.cells}
    for w in r.workers:
        for t in r.rayon:
            row = [f"{w} x {t}"]
            for amp in r.amplifiers:
                c = cells.get((amp, w, t))
                row.append(
                    f"{1000 * c.hazard.p:.2f} [{1000 * c.hazard.low:.2f}-{1000 * c.hazard.high:.2f}] ({c.hung}/{c.waves})"
                    if c
                    else "-"
                )
            table.add_row(*row)
    console.print(table)
    if r.heatmap is None:
        console.print(
            "no heatmap: matplotlib is not installed here (pip install 'gvlstress[plot]')", highlight=False
        )
    else:
        console.print(f"heatmap: {r.heatmap}", highlight=False, markup=False)
    console.print(f"report: {r.sweep_dir}/report.md", highlight=False, markup=False)


def print_slurm(console: Console, jobs: SlurmJobs) -> None:
    """`gvlstress slurm`: what was written, and what was submitted or how to submit it."""
    console.print(
        f"wrote {jobs.array_script}, {jobs.merge_script} and {jobs.submit_script}",
        highlight=False,
        markup=False,
    )
    if jobs.array_job:
        console.print(
            f"submitted array job {jobs.array_job}; merge job {jobs.merge_job} runs after it (afterany)"
        )
    else:
        console.print(f"submit with: bash {jobs.submit_script}", highlight=False, markup=False)
    console.print(
        f"merged report when done: {jobs.directory}/merged/report.md", highlight=False, markup=False
    )


def print_plan(console: Console, p: Plan) -> None:
    """`gvlstress plan`: the waves, batches and time to claim the bound."""
    console.print(
        f"to claim a hang rate below {100 * p.rate:g}% per wave at {100 * p.confidence:g}% confidence: "
        f"[bold]{p.waves}[/] clean waves in a row (zero-failure: (1 - {p.rate:g})^{p.waves} <= {1 - p.confidence:.3g})",
        highlight=False,
    )
    if p.run_dir is None:
        console.print("add --from RUN_DIR for batches and time measured on a run", highlight=False)
        return
    if p.batches_per_wave is not None:
        console.print(
            f"batches: {p.waves * p.batches_per_wave:,.0f} ({p.batches_per_wave:g} per wave in {p.run_dir})",
            markup=False,
        )
    if p.waves_per_hour:
        hours = p.waves / p.waves_per_hour
        console.print(
            f"time: {_hours(hours)} on this host at {p.waves_per_hour:,.0f} waves/hour; "
            f"{_hours(hours / p.hosts)} on {plural(p.hosts, 'host')} (--shard I/{p.hosts})",
            highlight=False,
            markup=False,
        )
    if p.hung:
        console.print(
            f"[yellow]note[/]: {escape(p.run_dir)} has {plural(p.hung, 'hung wave')}: no bound below its observed "
            "rate can be claimed until the cause is fixed",
            highlight=False,
        )
    elif p.done_clean:
        console.print(
            f"{p.run_dir} already has {p.done_clean} of them (if nothing changed since)",
            highlight=False,
            markup=False,
        )


def _hours(h: float) -> str:
    if h < 1 / 60:
        return f"{h * 3600:.0f} s"
    return f"{h * 60:.0f} min" if h < 1 else f"{h:.1f} h"


def print_hosts(console: Console, result: RunResult) -> None:
    """`gvlstress merge`: one line per input, odd hosts flagged."""
    for h in result.hosts:
        shard = f"shard {h.shard.index}/{h.shard.count}" if h.shard else "run"
        flag = "  [bold red]out of line[/]" if h.out_of_line else ""
        console.print(
            f"{shard} on {escape(h.environment.host)}: {h.hung}/{h.waves} waves hung "
            f"(p = {h.p_value:.3g} against the others){flag}",
            highlight=False,
        )
    for w in result.warnings[:20]:
        console.print(f"[yellow]warning[/]: {escape(_line(w))}", highlight=False)
    if len(result.warnings) > 20:
        console.print(
            f"... and {plural(len(result.warnings) - 20, 'more warning')} in run.json", highlight=False
        )


def print_summary(console: Console, result: RunResult, run_dir: str) -> None:
    s = result.summary
    console.print(
        f"[bold]{verdict_text(s.verdict)}[/]: {plural(s.waves, 'wave')}, {s.hung} hung, "
        f"{s.crashed} crashed, {s.errored} errored" + (" (interrupted)" if s.interrupted else "")
    )
    hung = next(
        ((wave, w) for wave in result.waves for w in wave.workers if w.diagnosis and w.verdict.is_hang), None
    )
    if hung is not None and (d := hung[1].diagnosis) is not None:
        console.print(
            f"  first hang: wave {hung[0].index + 1} slot {hung[1].slot} pid {hung[1].pid}: {_line(d.summary)}",
            highlight=False,
            markup=False,
        )
        for line in (end_line(d.waitfor) if d.waitfor else None, fix_line(d)):
            if line is not None:
                console.print(f"  {_line(line)}", highlight=False, markup=False)
    console.print(
        f"report: {one_line(run_dir)}/report.md  (run.json, junit.xml beside it)",
        highlight=False,
        markup=False,
    )
    cores = [c for wave in result.waves for w in wave.workers if w.capture and (c := w.capture.core) and c.ok]
    if cores:
        console.print(
            f"cores: {len(cores)} under {one_line(run_dir)}/cores/ ({mib(sum(c.file_bytes for c in cores))}); "
            "a core holds a worker's memory: it may hold secrets",
            highlight=False,
            markup=False,
        )


def print_inspect(console: Console, result: InspectResult) -> None:
    """One line per finding (what a process's names and tools said is shown escaped, cut)."""
    if result.core is not None:
        console.print(
            f"offline, from the core {one_line(result.core.core)} ({result.core.writer_hint}): no CPU over a "
            "window, no wait channels, no descriptors, no other processes",
            highlight=False,
            markup=False,
        )
    for p in result.processes:
        console.print(f"[bold]pid {p.pid}[/]: {escape(_line(p.diagnosis.summary))}")
        if p.diagnosis.waitfor is not None:
            console.print(f"  {_line(end_line(p.diagnosis.waitfor))}", highlight=False, markup=False)
        if (fix := fix_line(p.diagnosis)) is not None:
            console.print(f"  {_line(fix)}", highlight=False, markup=False)
        for e in p.diagnosis.evidence:
            console.print(f"  - {_line(e)}", highlight=False, markup=False)
        for m in p.diagnosis.missing:
            console.print(f"  - [yellow]missing view[/]: {escape(_line(m))}", highlight=False)
    console.print(f"report: {one_line(result.run_dir)}/report.md", highlight=False, markup=False)


def _line(text: str) -> str:
    return clip(one_line(text), 1000)


def print_checks(console: Console, checks: tuple[Check, ...]) -> None:
    table = Table(title="gvlstress doctor", show_lines=False)
    for col in ("check", "", "detail", "hint"):
        table.add_column(col, overflow="fold")
    for c in checks:
        mark = "[green]ok[/]" if c.ok else ("[red]FAIL[/]" if c.required else "[yellow]warn[/]")
        table.add_row(c.name, mark, escape(c.detail), escape(c.hint or ""))
    console.print(table)
    if all(c.ok for c in checks if c.required):
        console.print("A run here gets full diagnostics (/proc, py-spy, native stacks).")
    else:
        console.print("[red]A run here would miss diagnostic views[/]: fix the FAIL lines (exit 4).")


def print_selftest(console: Console, result: SelftestResult) -> None:
    table = Table(title="gvlstress selftest")
    for col in (*SELFTEST_HEADER, ""):
        table.add_column(col)
    for r in result.rows:
        table.add_row(*r.cells(), "[green]pass[/]" if r.passed else "[red]FAIL[/]")
    console.print(table)
    verdict = (
        "[green]every class caught and named; negative controls clean[/]"
        if result.passed
        else ("[red]some class was missed or misnamed: do not trust a clean run on this host yet[/]")
    )
    console.print(verdict)
    console.print(f"details: {result.run_dir}/selftest.md", highlight=False, markup=False)


def print_realbugs(console: Console, result: RealBugsResult) -> None:
    table = Table(title="gvlstress selftest --real")
    for col in REALBUG_HEADER:
        table.add_column(col)
    for o in result.outcomes:
        table.add_row(*map(escape, realbug_cells(o)))
    console.print(table)
    verdict = (
        "[green]every real bug caught and named; every control clean[/]"
        if result.passed
        else "[red]a real bug was missed or misnamed, or a control hung[/]"
    )
    console.print(verdict)
    console.print(f"details: {result.run_dir}/selftest-real.md", highlight=False, markup=False)


def print_compare(console: Console, c: Comparison, path: str) -> None:
    table = Table(title="gvlstress compare")
    for col in COMPARE_HEADER:
        table.add_column(col)
    for row in compare_rows(c):
        table.add_row(*map(escape, row))
    console.print(table)
    for line in pair_lines(c):
        console.print(line, highlight=False, markup=False)
    if c.sequential is not None:
        for line in sequential_lines(c.sequential):
            console.print(line, highlight=False, markup=False)
    if c.hosts:
        header, rows = host_table(c.hosts)
        hosts = Table(title="hosts (runs made with --like)")
        for col in header:
            hosts.add_column(escape(col))
        for row in rows:
            hosts.add_row(*map(escape, row))
        console.print(hosts)
    console.print(f"markdown: {path}", highlight=False, markup=False)


def print_hunt(console: Console, h: HuntResult) -> None:
    """The hunt's summary: why it stopped, the hazard with its 95% intervals, time to the hang."""
    r = h.hazard
    rate, low, high = h.per_cpu_minute or (0.0, 0.0, math.inf)
    console.print(
        f"[bold]hunt stopped[/]: {escape(h.stopped)}; {plural(h.waves, 'wave')}, {plural(h.batches, 'batch')}, "
        f"{h.cpu_minutes:.1f} CPU-minutes of workers",
        highlight=False,
    )
    console.print(
        f"hazard: {1000 * r.p:.2f} hangs per 1000 batches [95% CI {1000 * r.low:.2f}-{1000 * r.high:.2f}]; "
        f"{rate:.3f} per CPU-minute [{low:.3f}-{high:.3f}]",
        highlight=False,
    )
    if h.batches_to_hang is not None and h.seconds_to_hang is not None:
        console.print(
            f"first hang after {plural(h.batches_to_hang, 'batch')} and {h.seconds_to_hang:.1f}s",
            highlight=False,
        )
    if h.run.exploration:
        table = Table(title="settings explored, best first (hangs per CPU-minute of workers)", box=None)
        for col in (
            "setting",
            "waves",
            "hangs",
            "CPU-min",
            "hangs/CPU-min [95%]",
            "P(best)",
            "vs as given",
            "flags",
        ):
            table.add_column(col)
        for a in h.run.exploration:
            table.add_row(*map(escape, arm_cells(a)), escape(a.flags or "-"))
        console.print(table)
    if h.sequential is not None:
        for line in sequential_lines(h.sequential):
            console.print(line, highlight=False, markup=False)
    print_summary(console, h.run, shown_path(h.run.path or h.run.run_dir))


def print_profile(console: Console, profile: HostProfile, path: str) -> None:
    """`doctor --export`: what was read, and where it went."""
    whose = f" (pid {profile.process.pid})" if profile.process.pid else ""
    console.print(f"[bold]host profile[/] of {escape(profile.host)}{whose}", highlight=False)
    for line in profile_lines(profile):
        console.print(f"  {_line(line)}", highlight=False, markup=False)
    console.print(f"written: {one_line(path)}  (replay it: gvlstress run --like FILE)", markup=False)


def print_like(console: Console, rec: Recreation) -> None:
    """``--like``: each condition of the profile's host, as recreated here (or not), before the waves."""
    console.print(
        f"[bold]like[/] {escape(rec.profile)}: host {escape(rec.there.host)} recreated on {escape(rec.here.host)}",
        highlight=False,
    )
    for name, there, here, status in condition_rows(rec):
        shown = f"[yellow]{escape(status)}[/]" if status == "not recreated" else escape(status)
        console.print(
            f"  {escape(name)}: {escape(_line(there))} -> {escape(_line(here))}  ({shown})", highlight=False
        )
