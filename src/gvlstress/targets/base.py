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
    # Values in `env` may hold "{wave}", replaced by the wave's index in each wave.
    options: dict[str, Any]
    versions: dict[str, str] = field(default_factory=dict)
    faults: tuple[str, ...] = ()
    hanging_faults: tuple[str, ...] = ()
    rayon_env: tuple[str, ...] = ("RAYON_NUM_THREADS",)
    """Variables `--rayon N` sets to N in each worker before the target is imported."""
    env: dict[str, str] = field(default_factory=dict)
    """Further variables set in each worker before the target is imported."""
    python: str | None = None
    """Interpreter for the workers when it is not this one (``--python``)."""
    sys_path: tuple[str, ...] = ()
    """sys.path for workers under another interpreter: its own, plus a link to gvlstress."""
    expect: dict[str, str] = field(default_factory=dict)
    """Versions the scenario expects workers to import (key in the worker's target_info)."""
    warnings: tuple[str, ...] = ()
    facts: dict[str, Any] = field(default_factory=dict)
    """Anything else run.json should keep about the target (e.g. the dataset built)."""
    warm_up: bool = False
    """Open the target and run one batch (or the session's ``warm()``) in one process of the
    workers' interpreter before the first wave, so on-disk JIT caches (numba, torch) are
    complete before N workers start at once and race to write them."""
    parent_warmed: str | None = None
    """What the target itself ran in the supervisor for --warm-parent (None: the harness warms)."""
    scratch: tuple[str, ...] = ()
    """Directories the target made for this run only; removed when the run ends."""
    preload: tuple[str, ...] = ()
    """Modules worth importing once in the fork server (``--preload``): the heavy ones. The
    entry's module is always added."""


class Target(Protocol):
    name: str

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        """Validate the scenario for this target and build whatever workers need."""
        ...
