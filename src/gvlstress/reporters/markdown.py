"""report.md: a bug report someone can paste into an issue.

Summary, environment, configuration, per-wave table, diagnosis with evidence, thread-cap
audit, the stacks of every hung worker (identical stacks grouped, collapsed per group), and the
command that reproduces the run.
"""

from __future__ import annotations

import shlex
from collections import Counter
from pathlib import Path
from typing import Any

from gvlstress.campaign import stats
from gvlstress.campaign.compare import Comparison
from gvlstress.campaign.sweep import SweepResult
from gvlstress.controls.selftest import SelftestResult
from gvlstress.judge.explain import stack_groups
from gvlstress.judge.vocab import fold_frames, short_name, where
from gvlstress.model import (
    ArmStats,
    Capture,
    Diagnosis,
    Frame,
    HostFacts,
    InspectResult,
    RunResult,
    SequentialResult,
    Verdict,
    WaveResult,
    WorkerOutcome,
    plural,
)

MAX_FRAMES = 40
MAX_LINE = 240
"""A frame line longer than this (gdb's template-heavy Rust symbols) is cut."""
REPORT_LIMIT = 60_000
"""report.md stays under this many characters (GitHub takes 65,536 in an issue body); what does
not fit moves to stacks.md beside it, and run.json plus the raw dumps keep everything."""


def _code(text: str) -> str:
    quote = "'"
    return f"`{text.replace('`', quote)}`"


def _range(xs: list[float]) -> str:
    lo, hi = f"{min(xs):.1f}", f"{max(xs):.1f}"
    return lo if lo == hi else f"{lo}-{hi}"


def _value(v: object) -> str:
    """A setting as a reader writes it: true/false, 2.5 not 2.5000, no Python reprs."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return out


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
            + (f"; detected after {_range(detect)}s" if detect else "")
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
                f"**A worker {verb} in {k} of {plural(s.waves, 'wave')}** ({stats.rate(k, s.waves)} of waves){how}."
            )
    if s.interrupted:
        parts.append("The run was interrupted before it finished.")
    return " ".join(parts)


def _environment(result: RunResult) -> list[str]:
    return _environment_rows(result.environment, result.target.versions, result)


def _environment_rows(env: HostFacts, versions: dict[str, str], result: RunResult | None) -> list[str]:
    tools = env.tools
    spy = tools.get("py_spy") or {}
    nat = tools.get("native_stack_tool") or {}
    ptrace = tools.get("ptrace") or {}
    quota = env.cpu_quota
    rows = [
        ["gvlstress", env.gvlstress or "?"],
        ["Python", f"{env.python} ({env.implementation})"],
        ["platform", env.platform],
        ["kernel / libc", f"{env.kernel} / {env.libc}"],
        [
            "CPUs",
            f"{env.cpu_count} online, affinity {env.affinity}, "
            f"cgroup quota {f'{quota:g}' if quota else 'none'} -> budget {env.cpu_budget}",
        ],
        [
            "target",
            ", ".join(f"{k} {v}" for k, v in versions.items())
            or (f"`{result.scenario.target}`" if result is not None else "-"),
        ],
        ["py-spy", spy.get("version") or ("found, version unreadable" if spy.get("path") else "not found")],
        ["native stacks", f"{nat.get('name') or 'none'}"],
        [
            "ptrace",
            f"uid {ptrace.get('uid')}, CAP_SYS_PTRACE {ptrace.get('cap_sys_ptrace')}, "
            f"yama scope {ptrace.get('yama_ptrace_scope')}",
        ],
    ]
    knobs = env.thread_knobs
    rows.append(["thread knobs (parent)", ", ".join(f"{k}={v}" for k, v in knobs.items()) or "none set"])
    worker_knobs = sorted(
        {
            ", ".join(f"{k}={v}" for k, v in w.env_effective.items()) or "none set"
            for wave in (result.waves if result else ())
            for w in wave.workers
            if w.pid and (w.env_effective or w.env_inherited)
        }
    )
    if worker_knobs:
        rows.append(["thread knobs (workers)", "; ".join(worker_knobs)])
    return _table(["", ""], rows)


def _configuration(result: RunResult) -> list[str]:
    sc = result.scenario
    keys = [
        "target",
        "workers",
        "rayon",
        "inherit_rayon",
        "start_method",
        "waves",
        "iterations",
        "duration",
        "timeout",
        "stall",
        "stall_floor",
        "startup_grace",
        "warm_up",
        "fault",
        "fault_rate",
        "seed",
        "source",
    ]
    settings = sc.to_dict()
    rows = [[k, _code(_value(settings[k]))] for k in keys if settings.get(k) is not None]
    if sc.options:
        rows.append(["target options", _code(", ".join(f"{k}={_value(v)}" for k, v in sc.options.items()))])
    return _table(["setting", "value"], rows)


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
        parts.append(f"chaos {c['starvations']} starvations, {c['stops']} stops")
    return "; ".join(parts) or "-"


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
    return _table(header, rows) + (["", *gaps] if gaps else [])


def _hosts(result: RunResult) -> list[str]:
    """`gvlstress merge`: each input's host, its hang rate, and whether it is out of line."""
    rows = []
    for h in result.hosts:
        env = h.environment
        quota = env.cpu_quota
        budget = f"{env.cpu_budget}" + (f" (quota {quota:g})" if isinstance(quota, (int, float)) else "")
        r = stats.rate(h.hung, max(h.waves, 1))
        rows.append(
            [
                f"{h.shard.index}/{h.shard.count}" if h.shard else "-",
                _code(env.host),
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
        *_table(
            ["shard", "host", "kernel", "CPU budget", "waves", "hung", "hang rate [95%]", "p", "flag"], rows
        ),
    ]


def arm_cells(a: ArmStats) -> list[str]:
    """An explored setting's evidence, as both the console and report.md show it: setting,
    waves, hangs, CPU-minutes, hangs per CPU-minute [95%], P(best)."""
    per = a.per_cpu_minute
    return [
        a.label,
        str(a.waves),
        str(a.hangs),
        f"{a.cpu_minutes:.2f}",
        f"{per[0]:.2f} [{per[1]:.2f}-{per[2]:.2f}]" if per else "-",
        f"{a.p_best:.2f}",
    ]


def _exploration(result: RunResult) -> list[str]:
    """`hunt --explore`: each setting's evidence, best first, and how to run the best alone."""
    rows = []
    for a in result.exploration:
        label, waves, hangs, cpu, per, p_best = arm_cells(a)
        hazard = f"{1000 * a.hazard.p:.2f} [{1000 * a.hazard.low:.2f}-{1000 * a.hazard.high:.2f}]"
        rows.append([label, waves, hangs, cpu, per, hazard, p_best, _code(a.flags) if a.flags else "-"])
    best = result.exploration[0]
    head = [
        "Waves went by Thompson sampling on each setting's hangs per CPU-minute of workers; "
        f"best first. Most race-prone so far: **{best.label}** (P(best) {best.p_best:.2f}).",
        "",
    ]
    return [
        *head,
        *_table(
            [
                "setting",
                "waves",
                "hangs",
                "CPU-min",
                "hangs/CPU-min [95%]",
                "per 1000 batches [95%]",
                "P(best)",
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
    for wave, w in notable:
        out.append(f"### Wave {wave.index + 1}, slot {w.slot}, pid {w.pid}: {w.verdict.value}")
        out.append("")
        d = w.diagnosis
        if d is None:
            detail = (w.detail or "").strip()
            out += ["```text", detail[-4000:] or "(no detail)", "```", ""]
        else:
            out += _diagnosis_block(d)
        if wave.kept_alive is not None and wave.kept_alive == w.pid:
            out += [
                f"Kept alive after the wave for a debugger (`hunt --keep-alive`): "
                f"`gvlstress inspect {w.pid}`, `gdb -p {w.pid}`.",
                "",
            ]
        if w.stderr_tail and w.verdict.is_failure:
            out += [
                f"<details><summary>stderr of the worker (last {len(w.stderr_tail)} lines, redacted)"
                "</summary>",
                "",
                "```text",
                *w.stderr_tail,
                "```",
                "",
                "</details>",
                "",
            ]
    return out or ["Nothing to diagnose: no worker hung, crashed or raised.", ""]


def _short_path(path: str) -> str:
    """The last three parts of a source path (``rayon-1.12.0/src/iter/map.rs`` reads as well as
    ``/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/rayon-1.12.0/src/iter/map.rs``)."""
    parts = path.split("/")
    return "/".join(parts[-3:]) if len(parts) > 3 else path


def _frames_text(frames: tuple[Frame, ...], limit: int = MAX_FRAMES) -> str:
    """Frames one per line, rayon's join/steal recursion folded, long symbols cut."""
    folded, dropped = fold_frames(frames)
    lines = []
    for i, f in enumerate(folded[:limit]):
        loc = f" ({_short_path(f.file)}:{f.line})" if f.file and f.line else ""
        line = f"#{i:<3}{short_name(f.name)}{loc}"
        lines.append(line if len(line) <= MAX_LINE else line[: MAX_LINE - 3] + "...")
    if len(folded) > limit:
        lines.append(f"... {len(folded) - limit} more frames")
    if dropped:
        lines.append(f"({dropped} frames of repeated recursion folded)")
    return "\n".join(lines)


def stacks_section(cap: Capture, title: str, limit: int = MAX_FRAMES) -> list[str]:
    """One collapsed block per worker; inside, one per distinct stack with a thread count."""
    groups = stack_groups(cap)
    out = [
        f"<details><summary>{title}: {len(cap.threads)} threads, {len(groups)} distinct stacks</summary>",
        "",
    ]
    for g in groups:
        first = g.shown
        futex = f" on futex {first.futex_addr:#x}" if first.futex_addr is not None else ""
        gil = " **holds the GIL**" if g.holds_gil else ""
        tids = ", ".join(str(t) for t in g.tids[:20]) + (" ..." if len(g.tids) > 20 else "")
        note = " (recursion depth varies; the shallowest shown)" if g.depth_varies else ""
        idle = f" (idle: {g.idle})" if g.idle else ""
        out += [
            f"<details><summary>{g.who} ({first.state}{futex}{gil}): {where(first)}{idle}</summary>",
            "",
            f"tids: {tids}{note}",
            "",
        ]
        if first.native:
            out += ["native:", "", "```text", _frames_text(first.native, limit), "```", ""]
        elif not (first.python and first.python.frames):
            out += ["(no stack: see the missing views above)", ""]
        py = first.python
        if py and py.frames:
            out += [
                f"py-spy (thread {py.name}, {'active' if py.active else 'idle'}):",
                "",
                "```text",
                _frames_text(py.frames, limit),
                "```",
                "",
            ]
        out += ["</details>", ""]
    out += ["</details>", ""]
    return out


def render(result: RunResult) -> str:
    """report.md (see `render_files` for when stacks move out of it)."""
    return render_files(result)["report.md"]


def render_files(result: RunResult) -> dict[str, str]:
    """report.md, plus stacks.md when the stacks would push report.md past REPORT_LIMIT.
    (Nothing is redacted here: every string was redacted at the door it came in by.)"""
    head, stacks, tail = _report_parts(result)
    text = "\n".join([*head, *stacks, *tail]) + "\n"
    if len(text) <= REPORT_LIMIT:
        return {"report.md": text}
    stacks_md = "\n".join(["# Stacks of hung workers", "", *stacks[2:]]) + "\n"
    hung = [(wave, w) for wave, w in _hung(result) if w.capture]
    where_ = (
        f"The stacks of all {plural(len(hung), 'hung worker')} are in [stacks.md](stacks.md) "
        f"({len(stacks_md) // 1024} KB; too long to paste here)"
    )
    wave, w = hung[0]
    assert w.capture is not None
    first = stacks_section(w.capture, f"wave {wave.index + 1}, slot {w.slot}, pid {w.pid}", limit=16)
    for inline in ([f"{where_}. The first one, shortened:", "", *first], [f"{where_}.", ""]):
        text = "\n".join([*head, "## Stacks of hung workers", "", *inline, *tail]) + "\n"
        if len(text) <= REPORT_LIMIT:
            break
    if len(text) > REPORT_LIMIT:  # even the diagnosis is too long: keep its start, say so
        cut = REPORT_LIMIT - 2000
        text = text[:cut] + "\n\n(report cut at 58 KB; everything is in run.json and stacks.md)\n"
    return {"report.md": text, "stacks.md": stacks_md}


def _report_parts(result: RunResult) -> tuple[list[str], list[str], list[str]]:
    s = result.summary
    name = result.scenario.name
    n = sum(1 for w in result.waves if w.verdict is s.verdict)
    title = f"gvlstress: {s.verdict.value} in {n} of {plural(s.waves, 'wave')} ({name})"
    out = [f"# {title}", "", summary_paragraph(result), ""]
    out += [f"> **Warning:** {w}" for w in result.warnings] + ([""] if result.warnings else [])
    out += ["## Environment", "", *_environment(result), ""]
    out += ["## Configuration", "", *_configuration(result), ""]
    if result.hosts:
        out += ["## Hosts", "", *_hosts(result), ""]
    if result.exploration:
        out += ["## Settings explored", "", *_exploration(result), ""]
    out += ["## Waves", ""] + (_waves(result) if result.waves else ["(no wave finished)"]) + [""]
    out += ["## Diagnosis", "", *_diagnosis(result)]
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
    tail = ["## Reproduce", "", "```sh", shlex.join(result.command), "```", ""]
    if result.hosts:
        tail += ["Each input was run as:", "", "```sh"]
        tail += [shlex.join(h.command) for h in result.hosts] + ["```", ""]
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
        f"<sub>run directory `{result.run_dir}`; started {result.started_at}, finished {result.finished_at}; "
        f"machine-readable data in run.json, {dumps}</sub>"
    )
    return out, stacks, tail


def _diagnosis_block(d: Diagnosis) -> list[str]:
    out = [d.summary + ".", ""]
    if d.pattern:
        out += [f"Pattern: **{d.pattern}**." + (f" Hint: {d.hint}" if d.hint else ""), ""]
    out += [f"- {e}" for e in d.evidence]
    out += [f"- missing view: {m}" for m in d.missing]
    out.append("")
    if d.groups:
        rows = [
            [_code(hex(g.addr)), str(len(g.tids)), ", ".join(g.names) or "-", _code(g.blocked_in)]
            for g in d.groups
        ]
        out += [*_table(["futex", "threads", "who", "blocked in"], rows), ""]
    return out


def render_inspect(result: InspectResult) -> str:
    """report.md for `gvlstress inspect`: one section per process, stacks collapsed."""
    n = len(result.processes)
    out = [f"# gvlstress inspect: {n} process{'es' if n != 1 else ''}", ""]
    out.append(
        "A look at live process(es) with no heartbeat to say whether they make progress. Each is judged "
        "from its main thread and what that thread waits for: *idle* (it waits on I/O, a sleep, a child, "
        "a timed wait, or threads that can still end the wait), *busy* (burning CPU: a livelock and real "
        "work look alike without `--watch`), *stopped*, *stalled* (no known shape), or *deadlock*: every "
        "thread that could end the wait is blocked too and a named pattern (or a cycle across processes) "
        "explains it."
    )
    out += ["", "## Environment", "", *_environment_rows(result.environment, {}, None), ""]
    for p in result.processes:
        out += [f"## pid {p.pid}: {p.diagnosis.verdict.value}", "", f"`{p.cmdline[:300]}`", ""]
        out += _diagnosis_block(p.diagnosis)
        if p.activity and p.activity.threads:
            rows = [
                [
                    str(t.tid),
                    t.comm,
                    f"{t.cpu_s:.2f}",
                    str(t.voluntary_ctxt),
                    str(t.nonvoluntary_ctxt),
                    "-" if t.syscalls is None else str(t.syscalls),
                    ", ".join(t.waits_seen) or "-",
                ]
                for t in sorted(p.activity.threads, key=lambda t: -t.cpu_s)[:16]
            ]
            out += [
                f"Activity over {p.activity.seconds:.1f}s ({p.activity.samples} samples): {p.activity.summary}.",
                "",
                *_table(["tid", "comm", "CPU s", "voluntary", "involuntary", "syscalls", "waits seen"], rows),
                "",
            ]
        if p.capture:
            out += stacks_section(p.capture, f"pid {p.pid}")
    out += ["## Command", "", "```sh", shlex.join(result.command), "```", ""]
    return "\n".join(out) + "\n"


def render_selftest(result: SelftestResult) -> str:
    """selftest.md: the positive/negative control table for this host."""
    rows = [[*r.cells(), "pass" if r.passed else "**FAIL**"] for r in result.rows]
    out = [f"# gvlstress selftest: {'pass' if result.passed else 'FAIL'}", ""]
    out += _table(
        ["class", "expected", "verdicts", "named patterns", "detection", "caught", "named", ""], rows
    )
    out += ["", "Each control's full report is in its own run directory next to this file.", ""]
    return "\n".join(out)


def _compare_rows(c: Comparison) -> list[list[str]]:
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


def render_compare(c: Comparison) -> str:
    out = ["# gvlstress compare", ""]
    out += _table(COMPARE_HEADER, _compare_rows(c))
    out += ["", *[f"- {line}" for line in pair_lines(c)]]
    if c.sequential is not None:
        out += [*[f"- {line}" for line in sequential_lines(c.sequential)]]
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
        out += ["(no heatmap: matplotlib could not be imported here)", ""]
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
    out += _table(
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
