"""The human view: a live rich table on a terminal, plain log lines otherwise, and each
command's summary. Everything a person reads goes through one rich Console (NO_COLOR honoured by
rich); user strings never go through rich markup unescaped. Machine-readable output goes to
files, never here.

Modules (one line each, from their docstrings):

- `live`: The live view of a run: a rich table on a terminal, plain log lines otherwise; the
  sweep's progress bar.
- `paths`: Paths as the console shows them: usable, and no secret spelled out.
- `shrink`: The live view of a shrink (a progress bar of the launch budget on a terminal, one
  line per launch and per decided step anyway) and its summary.
- `summaries`: What each command prints when it is done: summaries, tables and where the files
  went.
- `watch`: What `gvlstress watch` shows while it watches: a live table on stderr (the job keeps
  stdout and the terminal) when asked, else one line per quiet...
"""

from gvlstress.reporters.console.live import ConsoleObserver, SweepBar, verdict_text
from gvlstress.reporters.console.paths import shown_path
from gvlstress.reporters.console.summaries import (
    print_checks,
    print_compare,
    print_hosts,
    print_hunt,
    print_inspect,
    print_like,
    print_plan,
    print_profile,
    print_realbugs,
    print_selftest,
    print_slurm,
    print_summary,
    print_sweep,
)

__all__ = [
    "ConsoleObserver",
    "SweepBar",
    "print_checks",
    "print_compare",
    "print_hosts",
    "print_hunt",
    "print_inspect",
    "print_like",
    "print_plan",
    "print_profile",
    "print_realbugs",
    "print_selftest",
    "print_slurm",
    "print_summary",
    "print_sweep",
    "shown_path",
    "verdict_text",
]
