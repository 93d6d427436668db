"""A target that misbehaves without telling the harness: the scenario says fault = "none".

The fault mode reaches the native loader through this target's own option (`-o mode=...`), so
a pattern the harness names can only come from frames and /proc facts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gvlstress.scenario import Scenario
from gvlstress.targets.base import TargetPlan
from gvlstress.targets.native import open_worker as native_open


def open_worker(options: dict[str, Any], seed: int, slot: int) -> Any:
    opts = dict(options)
    mode = opts.pop("mode")
    return native_open({**opts, "fault": mode, "fault_rate": 1.0}, seed, slot)


class HiddenFault:
    name = "hidden"

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        assert scenario.fault == "none", "this target exists to keep the fault away from the harness"
        return TargetPlan(entry="hidden_fault:open_worker", options=dict(scenario.options))


def make() -> HiddenFault:
    return HiddenFault()
