"""The target contract shared by built-in and third-party targets: `Target` (a name, the record
of what its loader knows about itself, and `prepare`) and the `TargetPlan` it returns.

The record (`LoaderFacts`, from the shared types so that the judge and the reporters read it as
data) is what the rest of gvlstress knows of a loader: the audit, the report, ``--like``,
``doctor --export`` and ``compare`` read it and name no loader of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from gvlstress.model.loader import KnownHang, LoaderFacts, PoolCap
from gvlstress.scenario import Scenario

__all__ = ["KnownHang", "LoaderFacts", "PoolCap", "Target", "TargetPlan", "loader_of"]


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
    """A target: its `name`, `prepare`, and optionally ``loader``, the `LoaderFacts` of what its
    loader knows about itself (a class attribute will do; see `loader_of`)."""

    name: str

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        """Validate the scenario for this target and build whatever workers need."""
        ...


def loader_of(target: object) -> LoaderFacts:
    """The record `target` fills in (its ``loader``); ``LoaderFacts()``, a plain rayon loader,
    for a target that has none or something else there."""
    facts = getattr(target, "loader", None)
    return facts if isinstance(facts, LoaderFacts) else LoaderFacts()
