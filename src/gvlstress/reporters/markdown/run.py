"""report.md: a bug report someone can paste into an issue.

Summary, environment, configuration, per-wave table, diagnosis with evidence, thread-cap
audit, the stacks of every hung worker (identical stacks grouped, collapsed per group), and the
command that reproduces the run.
"""

from __future__ import annotations

import shlex
from collections import Counter

from gvlstress.model import Diagnosis, RunResult, Verdict, WaveResult, WorkerOutcome, plural
from gvlstress.model.rate import rate
from gvlstress.reporters.cells import amplifier_cell, arm_cells, ratio_cell
from gvlstress.reporters.chain import chain_lines
from gvlstress.reporters.markdown.cores import core_lines, secrets_note
from gvlstress.reporters.markdown.environment import configuration, environment
from gvlstress.reporters.markdown.like import like_section
from gvlstress.reporters.markdown.stacks import stacks_section
from gvlstress.reporters.markdown.tables import code, ending, fenced, fit, prose, span_of, table
from gvlstress.store import error_ref
from gvlstress.system.text import clip, one_line, printable

REPORT_LIMIT = 60_000
"""report.md stays under this many characters (GitHub takes 65,536 in an issue body); what does
not fit moves to stacks.md beside it, and run.json plus the raw dumps keep everything."""
MAX_WORKERS = 24
"""Workers diagnosed one by one in report.md (and inputs whose command it shows); run.json has all."""
MAX_WARNINGS = 20


def _hung(result: RunResult) -> list[tuple[WaveResult, WorkerOutcome]]:
    return [(wave, w) for wave in result.waves for w in wave.workers if w.verdict.is_hang]


def summary_paragraph(result: RunResult) -> str:
    s = result.summary
    sc = result.scenario
    name = sc.name
    config = (
        f"{sc.workers} `{sc.start_method}` workers x "
        f"{sc.rayon or 'default'} rayon threads"
        + (f" (inherited RAYON_NUM_THREADS={sc.inherit_rayon})" if sc.inherit_rayon else "")
        + f", target `{sc.target}`"
        + (f" with fault `{sc.fault}` at rate {sc.fault_rate:g}" if sc.fault != "none" else "")
    )
    if not s.waves:
        return f"Scenario `{name}` ({config}) was stopped before any wave finished."
    parts = [f"Scenario `{name}`: {config}."]
    hung = _hung(result)
    if hung:
        kinds = Counter(w.verdict.value for _, w in hung)
        what = ", ".join(f"{n} {k}" for k, n in kinds.most_common())
        iters = sorted(w.iterations for _, w in hung)
        detect = [
            wave.detect_s for wave in result.waves if wave.verdict.is_hang and wave.detect_s is not None
        ]
        parts.append(
            f"**{s.hung} of {plural(s.waves, 'wave')} hung** ({what} {'worker' if len(hung) == 1 else 'workers'}), "
            f"after {iters[0]}"
            + (f"-{iters[-1]}" if iters[-1] != iters[0] else "")
            + f" {'batch' if iters[-1] == 1 else 'batches'} per hung worker"
            + (f"; detected after {span_of(detect)}s" if detect else "")
            + "."
        )
        first = next((w.diagnosis for _, w in hung if w.diagnosis), None)
        if first:
            parts.append(f"First diagnosis: {first.summary}.")
    else:
        parts.append(f"No hang in {plural(s.waves, 'wave')}.")
    for verb, k in (("crashed", s.crashed), ("raised", s.errored)):
        if k:
            passed = sum(1 for w in result.waves if w.verdict in (Verdict.OK, Verdict.SLOW))
            how = (
                f"; nondeterministic: {plural(passed, 'other wave')} of the same launch passed"
                if passed
                else ""
            )
            parts.append(
                f"**A worker {verb} in {k} of {plural(s.waves, 'wave')}** ({rate(k, s.waves)} of waves){how}."
            )
    if s.interrupted:
        parts.append("The run was interrupted before it finished.")
    return " ".join(parts)


def _waves(result: RunResult) -> list[str]:
    amplified = any(w.amplifiers for w in result.waves)
    rows = []
    for wave in result.waves:
        counts = Counter(w.verdict.value for w in wave.workers)
        rows.append(
            [
                str(wave.index + 1),
                f"**{wave.verdict.value}**" if wave.verdict is not Verdict.OK else "ok",
                f"{wave.wall_s:.1f}",
                str(sum(w.iterations for w in wave.workers)),
                wave.detected_by or "-",
                f"{wave.detect_s:.1f}" if wave.detect_s is not None else "-",
                ", ".join(f"{n} {k}" for k, n in counts.most_common()),
                *([wave.setting or "-"] if result.exploration else []),
                *([amplifier_cell(wave.amplifiers)] if amplified else []),
            ]
        )
    header = ["wave", "verdict", "wall s", "batches", "detected by", "detect s", "workers"]
    header += (["setting"] if result.exploration else []) + (["amplifiers"] if amplified else [])
    gaps = [
        f"- wave {wave.index + 1}: **not applied**: {gap}"
        for wave in result.waves
        for gap in wave.amplifiers.get("not_applied", ())
    ]
    return table(header, rows) + (["", *gaps] if gaps else [])


def _hosts(result: RunResult) -> list[str]:
    """`gvlstress merge`: each input's host, its hang rate, and whether it is out of line."""
    rows = []
    for h in result.hosts:
        env = h.environment
        quota = env.cpu_quota
        budget = f"{env.cpu_budget}" + (f" (quota {quota:g})" if isinstance(quota, (int, float)) else "")
        r = rate(h.hung, max(h.waves, 1))
        rows.append(
            [
                f"{h.shard.index}/{h.shard.count}" if h.shard else "-",
                code(env.host),
                env.kernel or "?",
                budget,
                str(h.waves),
                str(h.hung),
                f"{100 * r.p:.1f}% [{100 * r.low:.1f}-{100 * r.high:.1f}]",
                f"{h.p_value:.3g}",
                "**out of line**" if h.out_of_line else "-",
            ]
        )
    odd = [h for h in result.hosts if h.out_of_line]
    head = [
        f"{plural(len(result.hosts), 'input')} merged. Each input's hung waves are tested against all "
        "the others' (Fisher's exact test, Bonferroni over inputs): "
        + (
            f"**{plural(len(odd), 'input')} out of line** - one odd node is a finding."
            if odd
            else "none out of line."
        ),
        "",
    ]
    return [
        *head,
        *table(
            ["shard", "host", "kernel", "CPU budget", "waves", "hung", "hang rate [95%]", "p", "flag"], rows
        ),
    ]


def _exploration(result: RunResult) -> list[str]:
    """`hunt --explore`: each setting's evidence, best first, and how to run the best alone."""
    rows = []
    for a in result.exploration:
        label, waves, hangs, cpu, per, p_best, ratio = arm_cells(a)
        hazard = f"{1000 * a.hazard.p:.2f} [{1000 * a.hazard.low:.2f}-{1000 * a.hazard.high:.2f}]"
        rows.append([label, waves, hangs, cpu, per, hazard, p_best, ratio, code(a.flags) if a.flags else "-"])
    best = result.exploration[0]
    by = f", {ratio_cell(best.vs_given)} the setting as given" if best.vs_given and best.flags else ""
    head = [
        "Waves went by Thompson sampling on each setting's hangs per CPU-minute of workers; "
        f"best first. Most race-prone so far: **{best.label}** (P(best) {best.p_best:.2f}{by}).",
        "",
    ]
    return [
        *head,
        *table(
            [
                "setting",
                "waves",
                "hangs",
                "CPU-min",
                "hangs/CPU-min [95%]",
                "per 1000 batches [95%]",
                "P(best)",
                "vs as given [95%]",
                "flags",
            ],
            rows,
        ),
    ]


def _diagnosis(result: RunResult) -> list[str]:
    out: list[str] = []
    notable = [
        (wave, w)
        for wave in result.waves
        for w in wave.workers
        if w.verdict not in (Verdict.OK, Verdict.CANCELLED, Verdict.SLOW) or w.diagnosis
    ]
    for wave, w in notable[:MAX_WORKERS]:
        out.append(f"### Wave {wave.index + 1}, slot {w.slot}, pid {w.pid}: {w.verdict.value}")
        out.append("")
        d = w.diagnosis
        detail = (w.detail or "").strip()
        if d is None:
            out += [*fenced(ending(detail) or "(no detail)"), ""]
        else:
            out += diagnosis_block(d)
        if d is not None and w.verdict is Verdict.ERROR and detail:
            out += [
                f"<details><summary>traceback (its end; the whole in {error_ref(wave, w)})</summary>",
                "",
                *fenced(ending(detail)),
                "",
                "</details>",
                "",
            ]
        if wave.kept_alive is not None and wave.kept_alive == w.pid:
            out += [
                f"Kept alive after the wave for a debugger (`hunt --keep-alive`): "
                f"`gvlstress inspect {w.pid}`, `gdb -p {w.pid}`.",
                "",
            ]
        out += core_lines(w)
        if w.stderr_tail and w.verdict.is_failure:
            out += [
                f"<details><summary>stderr of the worker (last {len(w.stderr_tail)} lines, redacted)"
                "</summary>",
                "",
                *fenced("\n".join(w.stderr_tail)),
                "",
                "</details>",
                "",
            ]
    if len(notable) > MAX_WORKERS:
        out += [
            f"... and {plural(len(notable) - MAX_WORKERS, 'more worker')} (every one is in run.json).",
            "",
        ]
    return out or ["Nothing to diagnose: no worker hung, crashed or raised.", ""]


def _beside_known_hang(result: RunResult) -> list[str]:
    """The first hung wave's symptoms beside those of the hang its loader's record names."""
    hang = result.target.loader.known_hang
    hung = [w for w in result.waves if w.symptoms]
    if not hung or hang is None:
        return []
    full = sum(1 for w in hung if all(s.matches for s in w.symptoms))
    first = hung[0]
    rows = [[s.reported, s.seen, "yes" if s.matches else "no"] for s in first.symptoms]
    return [
        f"## Beside {hang.title}",
        "",
        f"Wave {first.index + 1} beside what {hang.ref}'s reporter saw ({full} of {len(hung)} hung wave(s) "
        "show all of it):",
        "",
        *table([f"reported in {hang.ref}", f"wave {first.index + 1}", "same"], rows),
        "",
    ]


def render(result: RunResult) -> str:
    """report.md (see `render_files` for when stacks move out of it)."""
    return render_files(result)["report.md"]


def render_files(result: RunResult) -> dict[str, str]:
    """report.md, plus stacks.md when the stacks would push report.md past REPORT_LIMIT; when
    even that does not fit, report.md keeps its start and the command, cut between whole lines.
    (Nothing is redacted here: every string was redacted at the door it came in by; control
    characters are escaped over the whole text.)"""
    head, stacks, tail = _report_parts(result)
    text = printable("\n".join([*head, *stacks, *tail]) + "\n")
    if len(text) <= REPORT_LIMIT:
        return {"report.md": text}
    files: dict[str, str] = {}
    hung = [(wave, w) for wave, w in _hung(result) if w.capture]
    if hung:
        files["stacks.md"] = printable("\n".join(["# Stacks of hung workers", "", *stacks[2:]]) + "\n")
        where_ = (
            f"The stacks of all {plural(len(hung), 'hung worker')} are in [stacks.md](stacks.md) "
            f"({len(files['stacks.md']) // 1024} KB; too long to paste here)"
        )
        wave, w = hung[0]
        assert w.capture is not None
        first = stacks_section(w.capture, f"wave {wave.index + 1}, slot {w.slot}, pid {w.pid}", limit=16)
        for inline in ([f"{where_}. The first one, shortened:", "", *first], [f"{where_}.", ""]):
            head_ = [*head, "## Stacks of hung workers", "", *inline]
            text = printable("\n".join([*head_, *tail]) + "\n")
            if len(text) <= REPORT_LIMIT:
                break
        head = head_
    if len(text) > REPORT_LIMIT:  # even the diagnosis is too long: keep its start, say so
        kept = "run.json and stacks.md" if hung else "run.json"
        note = f"(report cut to fit {REPORT_LIMIT // 1000} KB; everything is in {kept})"
        text = fit([printable(line) for line in head], [printable(line) for line in tail], REPORT_LIMIT, note)
    return {"report.md": text, **files}


def _report_parts(result: RunResult) -> tuple[list[str], list[str], list[str]]:
    s = result.summary
    name = result.scenario.name
    n = sum(1 for w in result.waves if w.verdict is s.verdict)
    title = f"gvlstress: {s.verdict.value} in {n} of {plural(s.waves, 'wave')} ({name})"
    out = [f"# {title}", "", summary_paragraph(result), ""]
    out += [f"> **Warning:** {prose(w)}" for w in result.warnings[:MAX_WARNINGS]]
    if len(result.warnings) > MAX_WARNINGS:
        out.append(
            f"> ... and {plural(len(result.warnings) - MAX_WARNINGS, 'more warning')} (all in run.json)"
        )
    out += [""] if result.warnings else []
    out += [*secrets_note(result), "## Environment", "", *environment(result), ""]
    out += ["## Configuration", "", *configuration(result), "", *like_section(result)]
    if result.hosts:
        out += ["## Hosts", "", *_hosts(result), ""]
    if result.exploration:
        out += ["## Settings explored", "", *_exploration(result), ""]
    out += ["## Waves", ""] + (_waves(result) if result.waves else ["(no wave finished)"]) + [""]
    out += ["## Diagnosis", "", *_diagnosis(result), *_beside_known_hang(result)]
    out += ["## Thread-cap audit", ""]
    items = result.audit
    out += [f"- {'**warning**: ' if i.severity == 'warn' else ''}{i.message}" for i in items] or [
        "- nothing to flag"
    ]
    out.append("")
    hung = [(wave, w) for wave, w in _hung(result) if w.capture]
    stacks: list[str] = []
    if hung:
        stacks += ["## Stacks of hung workers", ""]
        for wave, w in hung:
            assert w.capture is not None
            stacks += stacks_section(
                w.capture, f"wave {wave.index + 1}, slot {w.slot}, pid {w.pid} ({w.verdict.value})"
            )
    tail = ["## Reproduce", "", *fenced(one_line(clip(shlex.join(result.command), 4000)), "sh"), ""]
    if result.hosts:
        commands = [one_line(clip(shlex.join(h.command), 4000)) for h in result.hosts[:MAX_WORKERS]]
        tail += ["Each input was run as:", "", *fenced("\n".join(commands), "sh"), ""]
    replay = [wave for wave in result.waves if wave.verdict.is_hang and wave.origin is None]
    if replay:
        total = result.scenario.waves
        tail += [
            "One hung wave alone (its seed comes from `--seed` and its global index): the run's "
            "command with "
            + ", ".join(
                f"`--shard {w.index}/{total} --waves {total}` (wave {w.index + 1})" for w in replay[:5]
            )
            + ".",
            "",
        ]
    dumps = "raw py-spy/native/proc dumps under workers/" if hung else "no raw dumps (nothing hung)"
    tail.append(
        f"<sub>run directory {code(result.run_dir)}; started {result.started_at}, finished {result.finished_at}; "
        f"machine-readable data in run.json, {dumps}</sub>"
    )
    return out, stacks, tail


def diagnosis_block(d: Diagnosis) -> list[str]:
    out = [prose(d.summary) + ".", ""]
    if d.pattern:
        out += [f"Pattern: **{prose(d.pattern)}**." + (f" Hint: {prose(d.hint)}" if d.hint else ""), ""]
    if d.waitfor is not None:
        out += ["Wait-for chain:", "", *(f"1. {prose(line)}" for line in chain_lines(d.waitfor)), ""]
    out += [f"- {prose(e)}" for e in d.evidence]
    out += [f"- missing view: {prose(m)}" for m in d.missing]
    out.append("")
    if d.groups:
        rows = [
            [code(hex(g.addr)), str(len(g.tids)), ", ".join(g.names) or "-", code(g.blocked_in)]
            for g in d.groups
        ]
        out += [*table(["futex", "threads", "who", "blocked in"], rows), ""]
    return out
