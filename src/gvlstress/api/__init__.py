"""The programmatic API the CLI and the pytest plugin use: one module per use case.

It raises `GvlstressError` for expected failures and never prints: observers and reporters
decide what a human sees. Each name is imported when first used (PEP 562), so `inspect` does not
pay for the campaign machinery; no module is named like a function it exports (`running` holds
`run`), so importing one never shadows a name here.

Modules: `campaigns` (plan, sweep, compare, merge, slurm), `cores` (a core offline), `hunting`
(hunt), `inspecting` (inspect), `like` (a run's likeness), `output` (run directories, reports),
`realbugs` (the real-bug selftest), `report` (re-render), `reproduce` (a reproducer script),
`running` (run), `selftesting` (selftest), `shrinking` (shrink), `watch` and `watch_tests` (watch a job, the plugin's
watch), `waves` (the waves themselves).
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
