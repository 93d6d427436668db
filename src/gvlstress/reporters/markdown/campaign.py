"""Markdown for campaigns: selftest's control table, compare, sweep."""

from __future__ import annotations

from pathlib import Path

from gvlstress.model import plural
from gvlstress.model.campaign import Comparison, SweepResult
from gvlstress.model.controls import RealBugsResult, SelftestResult
from gvlstress.reporters.cells import (
    COMPARE_HEADER,
    REALBUG_HEADER,
    compare_rows,
    pair_lines,
    realbug_cells,
    sequential_lines,
)
from gvlstress.reporters.like import host_table
from gvlstress.reporters.markdown.tables import table


def render_selftest(result: SelftestResult) -> str:
    """selftest.md: the positive/negative control table for this host."""
    rows = [[*r.cells(), "pass" if r.passed else "**FAIL**"] for r in result.rows]
    out = [f"# gvlstress selftest: {'pass' if result.passed else 'FAIL'}", ""]
    out += table(
        ["class", "expected", "verdicts", "named patterns", "detection", "caught", "named", ""], rows
    )
    out += ["", "Each control's full report is in its own run directory next to this file.", ""]
    return "\n".join(out)


def render_realbugs(result: RealBugsResult) -> str:
    """selftest-real.md: each real bug caught and named, and its control clean."""
    out = [f"# gvlstress selftest --real: {'pass' if result.passed else 'FAIL'}", ""]
    out += table(REALBUG_HEADER, [realbug_cells(o) for o in result.outcomes])
    out += ["", "Sources:", ""]
    out += [f"- `{o.bug.name}`: {o.bug.title} ({o.bug.source})" for o in result.outcomes]
    out += ["", "Each entry's inspection report is in its own directory next to this file.", ""]
    return "\n".join(out)


def render_compare(c: Comparison) -> str:
    out = ["# gvlstress compare", ""]
    out += table(COMPARE_HEADER, compare_rows(c))
    out += ["", *[f"- {line}" for line in pair_lines(c)]]
    if c.sequential is not None:
        out += [*[f"- {line}" for line in sequential_lines(c.sequential)]]
    if c.hosts:
        header, rows = host_table(c.hosts)
        out += ["", "## Hosts (runs made with --like)", "", *table(header, rows)]
    out += [
        "",
        "Hang rates are per wave (launch), with 95% Wilson intervals; with no hang, the bound is the "
        "exact one-sided 95% upper limit (about 3/n). A clean run bounds the rate, it does not disprove a report.",
        "",
        "Runs:",
        "",
    ]
    out += [f"{i + 1}. `{r.run_dir}`" for i, r in enumerate(c.runs)]
    return "\n".join(out) + "\n"


def render_sweep(r: SweepResult) -> str:
    """The sweep's report: the hazard table per cell, the heatmap, and each cell's run."""
    sc = r.base
    out = [
        "# gvlstress sweep",
        "",
        f"Target `{sc.target}`, fault `{sc.fault}`"
        + (f" ({', '.join(f'{k}={v}' for k, v in sc.options.items())})" if sc.options else "")
        + f"; {plural(sc.waves, 'wave')} of {sc.iterations} batches per worker in each cell"
        + (" (**interrupted**: the cells below are those that finished)" if r.interrupted else "")
        + ".",
        "",
    ]
    if r.heatmap:
        out += ["![hangs per 1000 batches](heatmap.png)", ""]
    else:
        out += ["(no heatmap: matplotlib is not installed here: `pip install 'gvlstress[plot]'`)", ""]
    rows = []
    for c in r.cells:
        per = c.per_cpu_minute
        rows.append(
            [
                str(c.workers),
                str(c.rayon),
                c.amplifier,
                f"{c.hung}/{c.waves}",
                str(c.batches),
                f"{1000 * c.hazard.p:.2f} [{1000 * c.hazard.low:.2f}-{1000 * c.hazard.high:.2f}]",
                f"{per[0]:.2f} [{per[1]:.2f}-{per[2]:.2f}]" if per else "-",
                f"`{Path(c.run_dir).name}`",
            ]
        )
    out += table(
        [
            "workers",
            "threads",
            "amplifier",
            "hung waves",
            "batches",
            "hangs per 1000 batches [95%]",
            "hangs per CPU-minute [95%]",
            "run (under cells/)",
        ],
        rows,
    )
    out += [
        "",
        "A wave ends at its first hang, so a cell's hazard is hung waves per batch run; 95% Wilson "
        "intervals (exact Poisson per CPU-minute).",
        "",
    ]
    return "\n".join(out)
