"""shrink.md: the path a shrink took (every step, its launches and why it was kept or not),
the smallest setting, and the standalone reproducer with its own measured hang rate."""

from __future__ import annotations

import shlex
from typing import Any

from gvlstress.model.shrink import ShrinkResult
from gvlstress.reporters import shrunk
from gvlstress.reporters.markdown.tables import code, fenced, prose, table

_SHOWN = (
    "target",
    "fault",
    "fault_rate",
    "workers",
    "rayon",
    "inherit_rayon",
    "iterations",
    "duration",
    "start_method",
    "warm_parent",
    "preload",
    "squeeze",
    "cpu_quota",
    "burners",
    "chaos",
    "delays",
    "switch_interval",
    "gang",
    "result_bytes",
    "memory_limit",
    "kill_worker",
)


def setting_line(scenario: dict[str, Any], changes: dict[str, Any] | None = None) -> str:
    """The fields that make a setting, in one line (`changes` applied)."""
    s = {**scenario, **(changes or {})}
    parts = [f"{k}={s[k]}" for k in _SHOWN if s.get(k) not in (None, 0, False, "none") or k == "workers"]
    parts += [f"-o {k}={v}" for k, v in (s.get("options") or {}).items()]
    return ", ".join(parts)


def render_shrink(r: ShrinkResult) -> str:
    kept = r.kept
    minimal = setting_line(r.original, r.minimal)
    out = [
        f"# gvlstress shrink: {len(kept)} of {len(r.steps)} step(s) kept",
        "",
        f"From the run {code(r.source)} ({setting_line(r.original)}), which hung in {r.original_rate}, "
        f"the smallest setting found that still hangs at the stated rate ({100 * r.stated_rate:.0f}% of "
        f"launches) is: **{minimal}**. {len(r.steps)} step(s), {r.launches} launch(es), "
        f"{r.seconds:.0f}s; {prose(r.stopped or 'not finished')}.",
        "",
    ]
    out += [f"> **Warning:** {prose(w)}" for w in r.warnings] + ([""] if r.warnings else [])
    out += _reproducer(r)
    out += ["## The path", ""]
    rows = [
        [
            str(i),
            s.label,
            str(s.launches),
            str(s.hangs),
            s.decision,
            prose(s.why),
            ", ".join(code(x) for x in s.runs) or "-",
        ]
        for i, s in enumerate(r.steps, start=1)
    ]
    out += (
        table(["#", "step", "launches", "hung", "decision", "why", "runs"], rows)
        if rows
        else ["(no step yet)"]
    )
    out += [
        "",
        "## How each step was decided",
        "",
        f"Each step is a smaller setting launched (a `gvlstress run` of its own) until Wald's sequential "
        f"test decides between H1, a hang rate of {r.stated_rate:.3g} per launch (the step is kept), and "
        f"H0, a rate {r.ratio:g} times lower (dropped: its rate is shown to be lower), with error rates "
        f"alpha {r.alpha:g} and beta {r.beta:g}. A step whose launches (or the budget) ran out first is "
        "not kept: every kept step is evidence. Steps go one dimension at a time: the amplifiers only "
        "the harness can apply first, then the others, the start method, fewer workers, fewer threads "
        "and fewer batches (bisected down to 1), then each target option back to its default.",
        "",
    ]
    if not r.finished:
        out += [f"Not finished: `gvlstress shrink {shlex.quote(r.source)}` resumes it from shrink.json.", ""]
    return "\n".join(out) + "\n"


def _reproducer(r: ShrinkResult) -> list[str]:
    rep = r.reproduction
    if rep is None:
        return ["## Reproducer", "", "No standalone reproducer (see the warning).", ""]
    out = ["## Reproducer", ""]
    out.append(
        f"{code(r.files[0])} imports the standard library and {', '.join(rep.recipe.modules) or 'nothing else'} "
        f"only: {rep.workers} spawn-started worker(s) per launch, each setting "
        f"{', '.join(f'{k}={v}' for k, v in rep.env.items()) or 'no variable'} before it imports the loader; "
        f"a launch not done within {rep.timeout_s:g}s is a hang; it exits 1 on a hang."
    )
    m = r.measured
    if m is not None and m.error:
        out += ["", f"It could not be measured here: {prose(m.error)}."]
    elif m is not None:
        p = (
            f" (Fisher's exact test against the original run: p = {m.p_vs_original:.3g})"
            if m.p_vs_original is not None
            else ""
        )
        out += [
            "",
            f"Run alone (no gvlstress in its processes) it hung in **{m.rate}** launches; the original run hung in {r.original_rate}{p}.",
        ]
    if rep.not_carried:
        out += ["", f"Not carried into it (only the harness applies them): {', '.join(rep.not_carried)}."]
    if rep.recipe.note:
        out += ["", f"Note: {prose(rep.recipe.note)}."]
    out += [
        "",
        *fenced(f"python3 {r.files[0]}\ngvlstress run --scenario {r.files[1]}\n{shrunk.run_line(rep)}", "sh"),
        "",
    ]
    return out
