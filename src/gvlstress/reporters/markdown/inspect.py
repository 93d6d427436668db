"""report.md for `gvlstress inspect`: one section per process, stacks collapsed."""

from __future__ import annotations

import shlex

from gvlstress.model import InspectResult
from gvlstress.reporters.markdown.cores import offline_section
from gvlstress.reporters.markdown.environment import environment_rows
from gvlstress.reporters.markdown.run import diagnosis_block
from gvlstress.reporters.markdown.stacks import stacks_section
from gvlstress.reporters.markdown.tables import code, fenced, table
from gvlstress.system.text import clip, one_line, printable


def render_inspect(result: InspectResult) -> str:
    """report.md for `gvlstress inspect`: one section per process, stacks collapsed."""
    n = len(result.processes)
    out = [f"# gvlstress inspect: {n} process{'es' if n != 1 else ''}", ""]
    if result.core is not None:
        out[0] = "# gvlstress inspect --core: 1 process, offline"
        out += offline_section(result.core)
    elif result.by == "watch":
        out.append(
            "A look at a job's process tree after it made no progress for the stall (no data moved, no new "
            "memory, no process started or ended). With that progress signal every process is judged as `run` "
            "judges a quiet worker: a closed wait set is a *deadlock*, a spin is a *livelock* when a rule names "
            "what it waits for (else *busy*), an outside wait *idle*; a process whose tree holds a hung one is "
            "named after it."
        )
    else:
        out.append(
            "A look at live process(es) with no heartbeat to say whether they make progress. Each is judged "
            "from its main thread and what that thread waits for: *idle* (it waits on I/O, a sleep, a child, "
            "a timed wait, or threads that can still end the wait), *busy* (burning CPU: a livelock and real "
            "work look alike without `--watch`), *stopped*, *stalled* (ambiguous: a thread without a stack, or a "
            "wait another process may end), or *deadlock*: every thread that could end the wait is blocked "
            "too and nothing outside the process can end it (named by a pattern or a cycle across processes "
            "where one fits, else by the end of its wait-for chain)."
        )
    out += ["", "## Environment", "", *environment_rows(result.environment, {}, None), ""]
    for p in result.processes:
        out += [f"## pid {p.pid}: {p.diagnosis.verdict.value}", "", code(clip(p.cmdline, 300)), ""]
        out += diagnosis_block(p.diagnosis)
        if p.activity and p.activity.threads:
            rows = [
                [
                    str(t.tid),
                    t.comm,
                    f"{t.cpu_s:.2f}",
                    f"{t.kernel_s:.2f}",
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
                *table(
                    [
                        "tid",
                        "comm",
                        "CPU s",
                        "in kernel s",
                        "voluntary",
                        "involuntary",
                        "reads/writes",
                        "waits seen",
                    ],
                    rows,
                ),
                "",
            ]
        if p.capture:
            out += stacks_section(p.capture, f"pid {p.pid}")
    out += ["## Command", "", *fenced(one_line(clip(shlex.join(result.command), 4000)), "sh"), ""]
    return printable("\n".join(out) + "\n")
