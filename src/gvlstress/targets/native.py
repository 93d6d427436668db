"""The built-in target: the ``gvlstress_native`` rayon loader (``native/`` in this repository).

Stdlib-only at the top: workers import this module for `open_worker` after thread knobs are set,
and only then import the extension (whose rayon pool reads ``RAYON_NUM_THREADS`` when built).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from gvlstress.scenario import Scenario
    from gvlstress.targets.base import LoaderFacts, TargetPlan

# Integer Loader keyword -> (minimum, maximum). The [target] table of a scenario may set these;
# the maxima keep a typo (batch_size=10**12) from exhausting a worker's memory before its first
# batch, which would look like a crash of the loader.
_OPTIONS: dict[str, tuple[int, int]] = {
    "samples": (1, 1024),
    "ref_len": (1024, 1 << 28),
    "region_len": (1, 1 << 24),
    "batch_size": (1, 1 << 16),
    "slow_ms": (0, 600_000),
    "window_us": (0, 10_000_000),
}
BATCH_BYTES_MAX = 1 << 30
"""region_len x batch_size: the bytes one batch allocates."""
_OTHER_OPTIONS = ("fault_log",)


class _NativeSession:
    def __init__(self, loader: Any, module: Any) -> None:
        self._loader = loader
        self._module = module

    def next_batch(self) -> object:
        return self._loader.next_batch()

    def describe(self) -> dict[str, Any]:
        return {
            "rayon_threads": int(self._module.current_num_threads()),
            "fault": str(self._loader.fault),
            "batch_bytes": int(self._loader.batch_bytes),
            "gvlstress_native": str(self._module.__version__),
        }


def open_worker(options: dict[str, Any], seed: int, slot: int) -> _NativeSession:
    """Worker half: build this worker's loader (the pool starts on its first batch)."""
    import gvlstress_native

    loader = gvlstress_native.Loader(seed=seed, **options)
    return _NativeSession(loader, gvlstress_native)


def _warm_pool(module: Any, rayon: int | None, options: dict[str, Any]) -> None:
    """One batch in this (the supervisor) process: rayon's global pool starts here, sized like
    the workers' would be. Forked workers then inherit a pool whose threads do not exist."""
    old = os.environ.get("RAYON_NUM_THREADS")
    if rayon is not None:
        os.environ["RAYON_NUM_THREADS"] = str(rayon)
    try:
        healthy = {k: v for k, v in options.items() if k not in ("fault", "fault_rate", "fault_log")}
        module.Loader(seed=0, **healthy).next_batch()
    finally:
        if old is None:
            os.environ.pop("RAYON_NUM_THREADS", None)
        else:
            os.environ["RAYON_NUM_THREADS"] = old


class NativeTarget:
    """Supervisor half: check the extension is built and the settings make sense."""

    name = "native"

    @property
    def loader(self) -> LoaderFacts:
        """What the built-in loader knows about itself: rayon's defaults, and the key its
        version is reported under (imported here: workers import this module stdlib-only)."""
        from gvlstress.targets.base import LoaderFacts

        return LoaderFacts(
            name="gvlstress_native", stack=("gvlstress-native",), version_key="gvlstress_native"
        )

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        from gvlstress.errors import EnvironmentProblem, UsageError
        from gvlstress.targets.base import TargetPlan

        try:
            import gvlstress_native
        except ImportError as exc:
            raise EnvironmentProblem(
                f"the native loader is not built ({exc})",
                hint="install it from this repository: pip install ./native",
            ) from None
        faults = tuple(gvlstress_native.fault_modes())
        if scenario.fault not in faults:
            raise UsageError(
                f"unknown fault mode {scenario.fault!r} for target native",
                hint=f"known: {', '.join(faults)}",
            )
        options: dict[str, Any] = {}
        where = f"{scenario.source} [target]"
        for key, value in scenario.options.items():
            if key in _OPTIONS:
                lo, hi = _OPTIONS[key]
                if type(value) is not int or not lo <= value <= hi:
                    raise UsageError(f"{where}: {key} must be an integer in {lo}..{hi}, got {value!r}")
            elif key not in _OTHER_OPTIONS:
                known = ", ".join([*_OPTIONS, *_OTHER_OPTIONS])
                raise UsageError(f"{where}: unknown native option {key!r}", hint=f"known: {known}")
            options[key] = value
        region = int(options.get("region_len", 16_384))
        if region * int(options.get("batch_size", 128)) > BATCH_BYTES_MAX:
            raise UsageError(
                f"{where}: region_len x batch_size is over {BATCH_BYTES_MAX} bytes per batch",
                hint="lower one of them",
            )
        if int(options.get("ref_len", 1_000_000)) <= region + 16:
            raise UsageError(f"{where}: ref_len must be over region_len + 16 ({region + 16})")
        if scenario.fault == "fork_after_init" and not scenario.warm_parent:
            raise UsageError(
                "fault fork_after_init needs the pool started in the parent",
                hint="add --start-method fork --warm-parent (scenario: warm_parent = true)",
            )
        options["fault"] = scenario.fault
        options["fault_rate"] = scenario.fault_rate if scenario.fault != "none" else 0.0
        if scenario.warm_parent:
            _warm_pool(gvlstress_native, scenario.rayon, options)
        return TargetPlan(
            entry="gvlstress.targets.native:open_worker",
            options=options,
            versions={"gvlstress_native": str(gvlstress_native.__version__)},
            faults=faults,
            hanging_faults=tuple(gvlstress_native.hanging_fault_modes()),
            parent_warmed="one healthy batch of the native loader" if scenario.warm_parent else None,
            preload=("gvlstress_native",),
        )
