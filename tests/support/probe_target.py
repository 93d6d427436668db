"""Test targets: a worker that reports its imported modules, one that raises, one that aborts.

Used through ``--target probe_target:make`` with ``-o mode=modules|raise|abort`` and
``-o at=N`` (the batch on which slot 0 misbehaves; other slots stay healthy).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from gvlstress.scenario import Scenario
from gvlstress.targets.base import TargetPlan


class _Session:
    def __init__(self, mode: str, at: int, slot: int) -> None:
        self.mode = mode
        self.at = at
        self.slot = slot
        self.batches = 0

    def next_batch(self) -> object:
        self.batches += 1
        if self.slot == 0 and self.batches == self.at:
            if self.mode == "raise":
                raise RuntimeError(f"poisoned slot on batch {self.batches}")
            if self.mode == "abort":
                os.abort()
        return b""

    def describe(self) -> dict[str, Any]:
        heavy = ("click", "rich", "psutil", "pytest", "gvlstress.cli", "gvlstress.supervisor")
        return {"heavy_modules": [m for m in heavy if m in sys.modules]}


def open_worker(options: dict[str, Any], seed: int, slot: int) -> _Session:
    return _Session(str(options.get("mode", "modules")), int(options.get("at", 1)), slot)


class ProbeTarget:
    name = "probe"

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        return TargetPlan(entry="probe_target:open_worker", options=dict(scenario.options))


def make() -> ProbeTarget:
    return ProbeTarget()
