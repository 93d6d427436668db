"""The programmatic API the CLI and the pytest plugin use: one module per use case.

It raises `GvlstressError` for expected failures and never prints: observers and reporters
decide what a human sees. Each name is imported from its module the first time it is used
(PEP 562), so a command loads only the use case it runs: `gvlstress watch --help` does not
import the campaigns.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_WHERE = {
    "NullObserver": "run",
    "check_report_dir": "output",
    "compare": "campaigns",
    "export": "output",
    "harness_health": "waves",
    "hunt": "hunt",
    "inspect": "inspect",
    "inspect_core": "cores",
    "merge": "campaigns",
    "new_run_dir": "output",
    "plan": "campaigns",
    "real_selftest": "realbugs",
    "recreate": "like",
    "rerender": "report",
    "run": "run",
    "selftest": "selftest",
    "shrink": "shrink",
    "slurm": "campaigns",
    "sweep": "campaigns",
    "version_warnings": "waves",
    "write_reports": "output",
}
"""Each public name and the module of this package it lives in."""


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'gvlstress.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"gvlstress.api.{module}"), name)
    globals()[name] = value
    return value


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
