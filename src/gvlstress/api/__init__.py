"""The programmatic API the CLI and the pytest plugin use: one module per use case.

It raises `GvlstressError` for expected failures and never prints: observers and reporters
decide what a human sees. Imported whole (several names are also the names of their modules,
`run`, `inspect`, `hunt`: a lazy attribute would be shadowed by the submodule once imported);
a command is spared it by the CLI's lazy group, which imports only the command that runs.
"""

from gvlstress.api.campaigns import compare, merge, plan, slurm, sweep
from gvlstress.api.cores import inspect_core
from gvlstress.api.hunt import hunt
from gvlstress.api.inspect import inspect
from gvlstress.api.like import recreate
from gvlstress.api.output import check_report_dir, export, new_run_dir, write_reports
from gvlstress.api.realbugs import real_selftest
from gvlstress.api.report import rerender
from gvlstress.api.run import NullObserver, run
from gvlstress.api.selftest import selftest
from gvlstress.api.shrink import shrink
from gvlstress.api.waves import harness_health, version_warnings

__all__ = [
    "NullObserver",
    "check_report_dir",
    "compare",
    "export",
    "harness_health",
    "hunt",
    "inspect",
    "inspect_core",
    "merge",
    "new_run_dir",
    "plan",
    "real_selftest",
    "recreate",
    "rerender",
    "run",
    "selftest",
    "shrink",
    "slurm",
    "sweep",
    "version_warnings",
    "write_reports",
]
