"""Positive and negative controls: prove on this host that the harness catches and names every
known failure class before anyone trusts a clean run of a real target.

Each control is a short run of the native fixture in one fault mode. It passes when the verdict
and the named pattern are the expected ones (negative controls: no hang, no false alarm).
Pattern recognition never sees the requested mode; only frames and /proc facts. The controls
and their results are types of `model.controls`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gvlstress.judge import names
from gvlstress.model import RunResult, Verdict
from gvlstress.model.controls import Attempt, Control, SelftestResult

_WAITS = {"target": "shapes", "iterations": 4, "stall_floor": 0.5, "timeout": 30.0}
"""Negative controls that wait past the stall floor the ways real loaders wait (see targets/shapes)."""

CONTROLS: tuple[Control, ...] = (
    Control("healthy", Verdict.OK, None, {"waves": 2, "iterations": 40}),
    Control(
        "slow", Verdict.SLOW, None, {"fault": "slow", "iterations": 2, "stall_floor": 0.5}, {"slow_ms": 1200}
    ),
    Control("io_wait", Verdict.SLOW, None, _WAITS, {"mode": "read", "block_s": 1.5, "every": 2}),
    Control("sleep_wait", Verdict.SLOW, None, _WAITS, {"mode": "sleep", "block_s": 1.5, "every": 2}),
    Control("thread_wait", Verdict.SLOW, None, _WAITS, {"mode": "future", "block_s": 1.5, "every": 2}),
    Control("lock_across_par_iter", Verdict.DEADLOCK, names.LOCK_ACROSS, {"fault": "lock_across_par_iter"}),
    Control("pool_exhaustion", Verdict.DEADLOCK, names.POOL_EXHAUSTION, {"fault": "pool_exhaustion"}),
    Control("lock_order", Verdict.DEADLOCK, names.LOCK_ORDER, {"fault": "lock_order"}, {"window_us": 20000}),
    Control("gil_held", Verdict.DEADLOCK, names.GIL_HELD, {"fault": "gil_held"}),
    Control(
        "fork_after_init",
        Verdict.DEADLOCK,
        names.FORK_AFTER_INIT,
        {"fault": "fork_after_init", "start_method": "fork", "warm_parent": True},
    ),
    Control(
        "executor_wedge",
        Verdict.DEADLOCK,
        names.EXECUTOR_WEDGED,
        {"result_bytes": 64 << 20, "kill_worker": "sending", "iterations": 8},
    ),
    Control("big_results", Verdict.OK, None, {"result_bytes": 64 << 20, "iterations": 8}),
    Control("spin", Verdict.LIVELOCK, names.LIVELOCK, {"fault": "spin", "timeout": 6.0}),
    Control("crash", Verdict.CRASH, names.CRASH, {"fault": "crash"}),
    Control(
        "init_race",
        Verdict.ERROR,
        names.NONDETERMINISTIC_ERROR,
        {"fault": "init_race", "waves": 3, "iterations": 40, "workers": 5},
        {"window_us": 300},
    ),
)
NAMES = tuple(c.name for c in CONTROLS)


def attempt_of(result: RunResult) -> Attempt:
    """The worst wave's verdict and the patterns its workers were named with."""
    summary = result.summary
    worst_waves = [w for w in result.waves if w.verdict is summary.verdict]
    named = sorted(
        {
            w.diagnosis.pattern
            for wave in worst_waves
            for w in wave.workers
            if w.diagnosis and w.diagnosis.pattern and w.verdict is summary.verdict
        }
    )
    detect = next((w.detect_s for w in worst_waves if w.detect_s is not None), None)
    if detect is None and worst_waves and summary.verdict not in (Verdict.OK, Verdict.SLOW):
        detect = worst_waves[0].wall_s  # crash / error: when the wave ended
    return Attempt(summary.verdict, tuple(named), detect, result.run_dir)


def scenario_settings(c: Control, workers: int, rayon: int, report_dir: Path) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": f"selftest-{c.name}",
        "description": f"selftest control: {c.name}",
        "workers": workers,
        "rayon": rayon,
        "waves": 1,
        "iterations": 100,
        "timeout": 45.0,
        "fault_rate": 1.0,
        "report_dir": str(report_dir),
    }
    base.update(c.settings)
    base["options"] = dict(c.options)
    return base


def controls(names: tuple[str, ...] | None) -> tuple[Control, ...]:
    if not names:
        return CONTROLS
    return tuple(c for c in CONTROLS if c.name in names)


def as_dict(result: SelftestResult) -> dict[str, Any]:
    return {
        "schema": "gvlstress.selftest/1",
        "passed": result.passed,
        "rows": [
            {
                "class": r.control.name,
                "expected": r.control.expect.value,
                "expected_pattern": r.control.pattern,
                "runs": len(r.attempts),
                "caught": r.caught,
                "named": r.named,
                "passed": r.passed,
                "attempts": [dataclasses.asdict(a) | {"verdict": a.verdict.value} for a in r.attempts],
            }
            for r in result.rows
        ],
    }


ProgressFn = Callable[[Control, int, Attempt], None]
