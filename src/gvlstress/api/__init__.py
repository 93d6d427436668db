"""The programmatic API the CLI and the pytest plugin use: one module per use case.

It raises `GvlstressError` for expected failures and never prints: observers and reporters
decide what a human sees. Each name is imported when first used (PEP 562), so `inspect` does not
pay for the campaign machinery; no module is named like a function it exports (`running` holds
`run`), so importing one never shadows a name here.

Modules (one line each, from their docstrings):

- `campaigns`: Campaign use cases: compare runs, merge shards, write Slurm arrays, sweep a grid,
  plan.
- `cores`: Hangs kept for later: a run's cores put beside its reports, and `inspect --core`,
  which judges a core offline through the same rules as a live look.
- `hunting`: `hunt`: waves until a hang, a budget, a wave cap or a sequential decision; the
  hazard.
- `inspecting`: `inspect`: capture and explain a live process (and its descendants); never kill
  it.
- `like`: ``--like FILE``: recreate a host profile's conditions here, then check each wave had
  them.
- `output`: A run directory: where it goes, and its reports written from a result.
- `realbugs`: `selftest --real`: run each real bug's trigger, inspect the hung process as a user
  would, then run its control; nothing started here outlives the...
- `report`: ``gvlstress report DIR``: a run's human reports written again from its run.json
  (after a format change, or for a run an older gvlstress wrote: its...
- `reproduce`: The standalone reproducer of a shrunk setting: what it carries, its files, and
  its own hang rate, measured by running it (a plain Python program...
- `running`: `run`: every wave of a scenario, its files written as it goes, its reports at the
  end.
- `selftesting`: `selftest`: every control, positive and negative, on this host.
- `shrinking`: `shrink`: from a run that hung, the smallest setting that still hangs at the
  stated rate, then a standalone reproducer of it, measured on its own.
- `watch`: `gvlstress watch`: a hang watchdog for a long job, reporting through the same look as
  inspect.
- `watch_tests`: The pytest plugin's watchdog (``--gvlstress-watch SECONDS``): `gvlstress watch`
  on each test.
- `waves`: One wave after another, for `run`: each wave's setting and time budget, its files
  written as it ends, when to stop, and the reports at the end.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gvlstress.api.campaigns import compare, merge, plan, slurm, sweep
    from gvlstress.api.cores import inspect_core
    from gvlstress.api.hunting import hunt
    from gvlstress.api.inspecting import inspect
    from gvlstress.api.like import recreate
    from gvlstress.api.output import check_report_dir, export, new_run_dir, write_reports
    from gvlstress.api.realbugs import real_selftest
    from gvlstress.api.report import rerender
    from gvlstress.api.running import NullObserver, run
    from gvlstress.api.selftesting import selftest
    from gvlstress.api.shrinking import shrink
    from gvlstress.api.waves import harness_health, version_warnings

_WHERE = {
    "NullObserver": "running",
    "check_report_dir": "output",
    "compare": "campaigns",
    "export": "output",
    "harness_health": "waves",
    "hunt": "hunting",
    "inspect": "inspecting",
    "inspect_core": "cores",
    "merge": "campaigns",
    "new_run_dir": "output",
    "plan": "campaigns",
    "real_selftest": "realbugs",
    "recreate": "like",
    "rerender": "report",
    "run": "running",
    "selftest": "selftesting",
    "shrink": "shrinking",
    "slurm": "campaigns",
    "sweep": "campaigns",
    "version_warnings": "waves",
    "write_reports": "output",
}

__all__ = [  # the names above, listed for the type checkers
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


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value
