"""report.md and the other Markdown files: a run's bug report (`run`), stacks (`stacks`), an
inspection (`inspect`), campaigns (`campaign`). Formatting only: everything shown was computed
before (the verdicts, the audit, the stack groups' vocabulary is judging's).

Modules (one line each, from their docstrings):

- `campaign`: Markdown for campaigns: selftest's control table, compare, sweep.
- `cores`: Kept hangs in Markdown: the secrets note and each core of a run, and what an offline
  verdict from a core could not see.
- `environment`: The Environment and Configuration sections of a report: where a run (or a look)
  ran, with which tools and thread knobs, and the settings it ran with.
- `inspect`: report.md for `gvlstress inspect`: one section per process, stacks collapsed.
- `like`: report.md's section on a ``--like`` run: the profile's host beside this one, condition
  by condition, what could not be recreated, and what each...
- `run`: report.md: a bug report someone can paste into an issue.
- `shrink`: shrink.md: the path a shrink took (every step, its launches and why it was kept or
  not), the smallest setting, and the standalone reproducer with...
- `stacks`: Stacks for reading: one collapsed block per captured process, one per distinct stack
  inside.
- `tables`: Markdown primitives: inline code, tables, code blocks, free text, values as a reader
  writes them; and the cut that keeps a long document valid.
- `watch`: report.md for `gvlstress watch`: the job, how the watch went (its quiet spells), and
  the hang as inspect reports it, when one was found.
"""

from gvlstress.reporters.markdown.campaign import (
    render_compare,
    render_realbugs,
    render_selftest,
    render_sweep,
)
from gvlstress.reporters.markdown.inspect import render_inspect
from gvlstress.reporters.markdown.run import REPORT_LIMIT, render, render_files, summary_paragraph
from gvlstress.reporters.markdown.shrink import render_shrink
from gvlstress.reporters.markdown.stacks import stacks_section
from gvlstress.reporters.markdown.watch import render_watch

__all__ = [
    "REPORT_LIMIT",
    "render",
    "render_compare",
    "render_files",
    "render_inspect",
    "render_realbugs",
    "render_selftest",
    "render_shrink",
    "render_sweep",
    "render_watch",
    "stacks_section",
    "summary_paragraph",
]
