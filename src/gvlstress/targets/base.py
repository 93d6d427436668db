"""The target contract shared by built-in and third-party targets."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from gvlstress.scenario import Scenario


@dataclass(frozen=True)
class TargetPlan:
    """What the supervisor hands every worker, plus facts for the report."""

    entry: str
    """'module:function' of the worker half: fn(options, seed, slot) -> session."""
    options: dict[str, Any]
    versions: dict[str, str] = field(default_factory=dict)
    faults: tuple[str, ...] = ()
    hanging_faults: tuple[str, ...] = ()


class Target(Protocol):
    name: str

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        """Validate the scenario for this target and build whatever workers need."""
        ...
