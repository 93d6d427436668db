"""Table cells and lines both human views share (the console and report.md): computed once,
rendered by each its own way.
"""

from __future__ import annotations

from typing import Any

from gvlstress.model import ArmStats, SequentialResult, plural
from gvlstress.model.campaign import Comparison
from gvlstress.model.controls import Outcome


def arm_cells(a: ArmStats) -> list[str]:
    """An explored setting's evidence, as both the console and report.md show it: setting,
    waves, hangs, CPU-minutes, hangs per CPU-minute [95%], P(best), x the setting as given [95%]."""
    per = a.per_cpu_minute
    return [
        a.label,
        str(a.waves),
        str(a.hangs),
        f"{a.cpu_minutes:.2f}",
        f"{per[0]:.2f} [{per[1]:.2f}-{per[2]:.2f}]" if per else "-",
        f"{a.p_best:.2f}",
        ratio_cell(a.vs_given),
    ]


def ratio_cell(r: tuple[float, float, float] | None) -> str:
    """A rate ratio with its interval: 'inf' when the other side never hung."""
    if r is None:
        return "-"
    x, lo, hi = (("inf" if v == float("inf") else f"{v:.1f}") for v in r)
    return f"{x}x [{lo}-{hi}]"


def amplifier_cell(amp: dict[str, Any]) -> str:
    """What the amplifiers of one wave really did, in a table cell."""
    parts = []
    if sq := amp.get("squeeze"):
        parts.append(f"squeeze {sq['cpus']} CPU ({sq['workers_pinned']}/{sq['workers']} workers pinned)")
    if q := amp.get("cpu_quota"):
        parts.append(f"quota {q['cores']:g} cores ({q['workers_joined']} workers in it)")
    if b := amp.get("burners"):
        parts.append(f"{plural(b['count'], 'burner')}")
    if c := amp.get("chaos"):
        if "starved_s" in c:
            parts.append(
                f"chaos {plural(c['starvations'], 'thread stop')} ({c['main_thread_starvations']} of a main "
                f"thread, {c['starved_s']:.1f} s stopped)"
            )
        else:  # run.json before strict starvation
            parts.append(f"chaos {c['starvations']} starvations, {c.get('stops', 0)} stops")
    if g := amp.get("gang"):
        parts.append(f"gang {g['gang_ms']} ms slices ({plural(g['turns'], 'turn')})")
    if d := amp.get("delays"):
        part = f"delay layer: {plural(d.get('delays', 0), 'delay')} in {d['workers_loaded']}/{d['workers']} workers"
        if d.get("sites"):
            part += f", {d['hot_delays']} at {plural(len(d['sites']), 'learned site')}"
        if d.get("learned"):
            part += f"; learned {', '.join(d['learned'])}"
        parts.append(part)
    if si := amp.get("switch_interval"):
        parts.append(f"GIL switch every {1e6 * si['seconds']:g} us")
    if m := amp.get("memory_limit"):
        parts.append(f"memory {m['bytes'] // 2**20} MiB ({plural(m['oom_kills'] or 0, 'OOM kill')})")
    if k := amp.get("kill_worker"):
        killed = k.get("killed")
        parts.append(
            f"kill-worker {k['when']}: "
            + (f"slot {killed['slot']} at batch {killed['batches']}" if killed else "none")
        )
    return "; ".join(parts) or "-"


def compare_rows(c: Comparison) -> list[list[str]]:
    return [
        [
            f"{i + 1}. {r.name}",
            r.versions,
            r.config,
            f"{r.hung}/{r.waves}",
            str(r.rate),
            str(r.batches),
            f"{r.batches_per_s:.1f}" if r.batches_per_s is not None else "-",
            r.threads,
            str(r.errored),
        ]
        for i, r in enumerate(c.runs)
    ]


COMPARE_HEADER = [
    "run",
    "imported",
    "configuration",
    "hung waves",
    "hang rate (95% CI)",
    "batches",
    "batches/s per worker",
    "threads per worker",
    "crashed/errored waves",
]


def sequential_lines(r: SequentialResult) -> list[str]:
    """An SPRT's question, answer and cost against a fixed-size test (computed, rendered here)."""
    n0, n1 = r.expected
    return [
        f"sequential test (Wald SPRT, alpha {r.alpha:g}, beta {r.beta:g}): {r.question}",
        f"answer: {r.answer}",
        f"used {r.trials} trials ({r.events} events; log-likelihood ratio {r.llr:.2f}, bounds "
        f"{r.lower:.2f} and {r.upper:.2f}); on average it needs {n0:.0f} under H0 and {n1:.0f} under H1, "
        f"a fixed-size test of the same error rates {r.fixed}",
    ]


def pair_lines(c: Comparison) -> list[str]:
    out = []
    for p in c.pairs:
        a, b = c.runs[p.a], c.runs[p.b]
        verdict = "a significant difference" if p.p_value < 0.05 else "no significant difference"
        out.append(
            f"{p.a + 1} vs {p.b + 1} ({a.name} vs {b.name}): {a.hung}/{a.waves} vs {b.hung}/{b.waves} "
            f"hung waves, Fisher exact p = {p.p_value:.3g}: {verdict} at 5%"
        )
    return out


def realbug_cells(o: Outcome) -> list[str]:
    """One catalogue entry as table cells (console and selftest-real.md share them)."""
    if o.skipped is not None:
        return [o.bug.name, o.bug.pattern, "skipped", "-", "-", "-", "-", o.skipped]
    if o.error is not None:
        return [o.bug.name, o.bug.pattern, "error", "-", "-", "-", "-", o.error]
    return [
        o.bug.name,
        o.bug.pattern,
        o.verdict or "-",
        o.pattern or "-",
        "yes" if o.caught else "no",
        "yes" if o.named else "no",
        f"{o.inspect_s:.1f} s" if o.inspect_s is not None else "-",
        ("yes" if o.control_clean else f"no ({o.control_note})")
        + (f", {o.control_s:.1f} s" if o.control_s is not None else ""),
    ]


REALBUG_HEADER = [
    "entry",
    "expected pattern",
    "verdict",
    "named",
    "caught",
    "right name",
    "inspect",
    "control clean",
]
