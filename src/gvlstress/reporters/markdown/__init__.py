"""report.md and the other Markdown files: a run's bug report (`run`), stacks (`stacks`), an
inspection (`inspect`), campaigns (`campaign`). Formatting only: everything shown was computed
before (the verdicts, the audit, the stack groups' vocabulary is judging's)."""

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
