"""The human view: a live rich table on a terminal, plain log lines otherwise, and each
command's summary. Everything a person reads goes through one rich Console (NO_COLOR honoured by
rich); user strings never go through rich markup unescaped. Machine-readable output goes to
files, never here."""

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
