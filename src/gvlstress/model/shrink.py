"""Shrinking a hang: the steps a search took from a run that hung to the smallest setting that
still hangs at the stated rate, and the standalone reproducer written from that setting."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gvlstress.model.rate import Rate


@dataclass(frozen=True)
class Step:
    """One smaller setting tried: what it changed, what its launches showed, and the decision."""

    label: str
    """What it changes, e.g. 'workers 5 -> 1' or 'drop --chaos'."""
    changes: dict[str, Any]
    """The scenario fields it sets on the current setting (target options under 'options')."""
    launches: int = 0
    hangs: int = 0
    decision: str = "pending"
    """'kept' (it still hangs at the stated rate), 'dropped' (shown lower), 'undecided' (its
    --step-launches ran out first: not kept), 'invalid' (the setting is refused), or 'pending'
    (interrupted, or this invocation's time or launch budget ran out: a resumed shrink goes on
    with its launches)."""
    why: str = ""
    runs: tuple[str, ...] = ()
    """Its run directories, relative to the shrunk run's directory."""
    seconds: float = 0.0
    batch_s: float = 0.0
    """Slowest clean launch seen (wall seconds): what a reproducer's timeout is taken from."""

    @property
    def done(self) -> bool:
        return self.decision != "pending"


@dataclass(frozen=True)
class Recipe:
    """How a standalone program opens and iterates the user's loader: import lines run inside
    the worker after its environment is set, an expression for the loader (it may use
    ``OPTIONS``, ``seed`` and ``slot``), and one statement that takes a batch from ``loader``."""

    imports: tuple[str, ...]
    open: str
    next: str
    modules: tuple[str, ...]
    """The top-level modules it imports beyond the standard library (the user's loader)."""
    options: dict[str, Any] = field(default_factory=dict)
    setup: tuple[str, ...] = ()
    """Statements after the imports, before the loader is opened (e.g. quieting its logging)."""
    warm_options: dict[str, Any] | None = None
    """The options of the parent's one warm batch before workers fork (``--warm-parent``); None:
    the same `options`."""
    note: str = ""
    helpers: tuple[str, ...] = ()
    """Top-level lines of the program beside `open_loader` (module level, so a child started
    with spawn or forkserver can import what it runs by name, e.g. a loader child)."""


@dataclass(frozen=True)
class Reproduction:
    """Everything the standalone reproducer, its scenario TOML and its `run` line say."""

    recipe: Recipe
    workers: int
    iterations: int
    duration: float | None
    start_method: str
    env: dict[str, str]
    """Set in each worker before the loader is imported (RAYON_NUM_THREADS and the like)."""
    inherited: dict[str, str]
    """In the parent's environment, so workers are born with it (``--inherit-rayon``)."""
    seed: int
    timeout_s: float
    launches: int
    python: str
    result_bytes: int = 0
    switch_interval: float | None = None
    affinity: tuple[int, ...] | None = None
    burners: int = 0
    warm_parent: bool = False
    preload: tuple[str, ...] = ()
    kill_worker: str | None = None
    not_carried: tuple[str, ...] = ()
    """Settings only the harness can apply (chaos, a cgroup quota...) that the file leaves out."""
    scenario: dict[str, Any] = field(default_factory=dict)
    """The minimal scenario's fields that differ from the defaults, and its [target] options."""
    source: str = ""
    """The run directory the shrink started from."""
    evidence: str = ""
    """What gvlstress saw of this setting, in a line (the step that kept it, the original run)."""


@dataclass(frozen=True)
class Measured:
    """The standalone reproducer run on its own (no gvlstress in its processes)."""

    rate: Rate
    errors: int = 0
    seconds: float = 0.0
    p_vs_original: float | None = None
    """Fisher's exact test of its hang rate against the original run's (two-sided)."""
    error: str | None = None
    """Why it could not be measured (it did not start, or ran past its deadline)."""


@dataclass(frozen=True)
class ShrinkResult:
    """A shrink's whole path (shrink.json keeps it; a resumed shrink starts from it)."""

    source: str
    original: dict[str, Any]
    """The run's scenario as recorded (the starting setting)."""
    original_rate: Rate
    stated_rate: float
    """The rate the smallest setting must still hang at (SPRT's H1)."""
    ratio: float
    """H0 is a rate this many times lower."""
    alpha: float
    beta: float
    steps: tuple[Step, ...] = ()
    minimal: dict[str, Any] = field(default_factory=dict)
    """The smallest setting found (the fields it changed from the original)."""
    launches: int = 0
    seconds: float = 0.0
    stopped: str = ""
    finished: bool = False
    reproduction: Reproduction | None = None
    measured: Measured | None = None
    files: tuple[str, ...] = ()
    """What was written beside the run (relative to its directory)."""
    warnings: tuple[str, ...] = ()

    @property
    def kept(self) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.decision == "kept")
