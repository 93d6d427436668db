"""report.md for `gvlstress watch`: the job, how the watch went (its quiet spells), and the hang
as inspect reports it, when one was found."""

from __future__ import annotations

from gvlstress.model.watch import WatchResult
from gvlstress.reporters.markdown.inspect import render_inspect
from gvlstress.reporters.markdown.tables import prose, table
from gvlstress.system.text import clip


def render_watch(result: WatchResult) -> str:
    """The watch's summary first (what a reader of a 3 a.m. failure needs), then the look."""
    how = (
        f"attached to process {result.pid}"
        if result.attached
        else f"started process {result.pid}: `{clip(' '.join(result.command), 300)}`"
    )
    if result.hung:
        head = f"# gvlstress watch: a hang, {result.hang.processes[0].diagnosis.summary if result.hang and result.hang.processes else ''}"
    elif result.stopped_by:
        head = f"# gvlstress watch: stopped by {result.stopped_by}, no hang found"
    else:
        head = "# gvlstress watch: no hang"
    out = [
        clip(head, 400),
        "",
        f"Watched for {result.seconds:.0f}s ({how}); a stall is {result.stall_s:g}s with no progress.",
        "",
    ]
    if result.action:
        out += [f"After the report: {result.action}.", ""]
    if result.exit_code is not None:
        out += [f"The job ended by itself with exit code {result.exit_code}.", ""]
    if result.blind:
        out += ["What this watch could not see:", "", *(f"- {b}" for b in result.blind), ""]
    if result.quiet:
        out += ["## Quiet spells (looked at, judged healthy)", ""]
        out += table(
            ["at", "quiet for", "verdict", "what the look saw"],
            [[f"{q.at_s:g}s", f"{q.quiet_s:g}s", q.verdict, prose(q.summary, 300)] for q in result.quiet],
        )
        out.append("")
    if result.hang is not None:
        body = render_inspect(result.hang)
        out += ["## The look that found the hang", "", *body.splitlines()[1:]]
    return "\n".join(out).rstrip() + "\n"
