"""A test target whose worker reports which modules it has imported (the worker must stay light)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from gvlstress.scenario import Scenario
from gvlstress.targets.base import TargetPlan


class _Session:
    def next_batch(self) -> object:
        return b""

    def describe(self) -> dict[str, Any]:
        heavy = ("click", "rich", "psutil", "pytest", "gvlstress.cli", "gvlstress.supervisor")
        return {"heavy_modules": [m for m in heavy if m in sys.modules]}


def open_worker(options: dict[str, Any], seed: int, slot: int) -> _Session:
    return _Session()


class ProbeTarget:
    name = "probe"

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        return TargetPlan(entry="probe_target:open_worker", options={})


def make() -> ProbeTarget:
    return ProbeTarget()
