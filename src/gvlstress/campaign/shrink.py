"""`shrink`: from a run that hung, the smallest setting that still hangs at a stated rate.

Greedy, one dimension at a time, in an order that makes the result standalone first and small
after: the amplifiers only the harness can apply (chaos, the delay layer, the gang, a cgroup
quota or memory limit), then the rest (a killed worker, burners, the squeeze, the switch
interval, a big result), the start method back to spawn, then fewer workers, fewer threads and
fewer batches (each a bisection down to 1), then each target option back to its default.

Each step is a smaller setting launched until Wald's sequential test (`stats.Sprt`) decides
between H1, "it hangs at the stated rate p1", and H0, "it hangs `ratio` times less": H1 keeps
the step, H0 drops it (its rate is shown to be lower), and a step whose launches (or the budget)
run out before a decision is not kept either, so every kept step is evidence, never a guess.
The stated rate defaults to the run's own hang rate (capped at 0.9: the test needs p1 < 1).

Pure: the next step is worked out from the original setting and the steps decided so far, so a
shrink that was interrupted picks up where it stopped (its state is the list of steps).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from gvlstress.campaign import stats
from gvlstress.model.shrink import Step
from gvlstress.scenario import Scenario

RATE_FLOOR, RATE_CAP = 0.01, 0.9
RATIO = 4.0
"""H0 is a rate this many times below the stated one: a deterministic hang (p1 0.9, p0 0.225)
is kept after 3 hung launches and dropped after 2 clean ones."""
MAX_RATIO = 1000.0
"""Beyond this, H0 is a rate no launch count could tell from zero (and inf states no test)."""

HARNESS_ONLY = ("chaos", "delays", "gang", "cpu_quota", "memory_limit")
"""Amplifiers a standalone program cannot apply: dropped first, so the reproducer needs none."""
CARRIED = ("kill_worker", "burners", "squeeze", "switch_interval", "result_bytes")
"""Amplifiers the reproducer carries when a hang needs them."""
_OFF: dict[str, Any] = {
    "chaos": None,
    "delays": None,
    "gang": 0,
    "cpu_quota": None,
    "memory_limit": None,
    "kill_worker": None,
    "burners": 0,
    "squeeze": None,
    "switch_interval": None,
    "result_bytes": 0,
}
_FLAG = {name: "--" + name.replace("_", "-") for name in _OFF}


def stated_rate(hung: int, waves: int) -> float:
    """The run's hang rate per launch, kept within what the sequential test can state."""
    return min(RATE_CAP, max(RATE_FLOOR, hung / waves if waves else RATE_CAP))


def sprt(rate: float, ratio: float = RATIO, alpha: float = 0.05, beta: float = 0.05) -> stats.Sprt:
    return stats.Sprt(rate / ratio, rate, alpha, beta)


def decide(test: stats.Sprt, hangs: int, launches: int, cap: int) -> tuple[str, str] | None:
    """A step's decision after `launches` of it (None: launch again)."""
    llr = test.llr(hangs, launches)
    said = f"{hangs}/{launches} hung; log-likelihood ratio {llr:+.2f}"
    verdict = test.decide(hangs, launches)
    if verdict == "H1":
        return "kept", f"{said} >= {test.upper:.2f}: it hangs at the stated rate ({test.p1:.2f})"
    if verdict == "H0":
        return (
            "dropped",
            f"{said} <= {test.lower:.2f}: its rate is shown lower (H0, {test.p0:.3g}, fits better)",
        )
    if launches >= cap:
        return "undecided", f"{said}: no decision within {cap} launches, not kept"
    return None


def apply(scenario: Scenario, changes: dict[str, Any]) -> Scenario:
    return dataclasses.replace(scenario, **changes)


def current(original: Scenario, steps: Sequence[Step]) -> Scenario:
    """The setting every kept step leads to."""
    for s in steps:
        if s.decision == "kept":
            original = apply(original, s.changes)
    return original


def changed(original: Scenario, now: Scenario) -> dict[str, Any]:
    """The fields `now` sets differently from `original` (the shrink's result)."""
    a, b = original.to_dict(), now.to_dict()
    return {k: b[k] for k in b if a[k] != b[k]}


def next_step(original: Scenario, steps: Sequence[Step], pool: int) -> Step | None:
    """The next smaller setting to try (an unfinished step first); None when none is left.
    `pool` is the threads per worker the run really had where `--rayon` left it to the loader."""
    if steps and not steps[-1].done:
        return steps[-1]
    tried = {s.label for s in steps}
    for step in _candidates(current(original, steps), steps, pool):
        if step.label not in tried:
            return step
    return None


def _candidates(sc: Scenario, steps: Sequence[Step], pool: int) -> Iterator[Step]:
    for name in (*HARNESS_ONLY, *CARRIED):
        if getattr(sc, name) != _OFF[name]:
            yield Step(f"drop {_FLAG[name]}", {name: _OFF[name]})
    if sc.start_method != "spawn":
        yield Step(
            f"start method {sc.start_method} -> spawn",
            {"start_method": "spawn", "warm_parent": False, "preload": False},
        )
    if sc.warm_parent:
        yield Step("drop --warm-parent", {"warm_parent": False})
    if sc.preload:
        yield Step("drop --preload", {"preload": False})
    yield from _fewer(sc, steps, "workers", sc.workers, "workers")
    yield from _fewer(sc, steps, "rayon", sc.rayon or pool, "threads")
    if sc.inherit_rayon:
        yield from _fewer(sc, steps, "inherit_rayon", sc.inherit_rayon, "inherited threads")
    if sc.duration is None:
        yield from _fewer(sc, steps, "iterations", sc.iterations, "batches")
    else:
        yield from _fewer(sc, steps, "duration", int(sc.duration), "seconds of batches")
    for key in sorted(sc.options):
        rest = {k: v for k, v in sc.options.items() if k != key}
        yield Step(f"drop -o {key}={sc.options[key]}", {"options": rest})


def _fewer(sc: Scenario, steps: Sequence[Step], name: str, now: int, what: str) -> Iterator[Step]:
    """Bisection down to 1: 1 first, then halfway between the largest value shown too small
    and the current one."""
    if now <= 1:
        return
    failed = [
        s.changes[name]
        for s in steps
        if s.done and s.decision != "kept" and name in s.changes and s.changes[name] < now
    ]
    low = max(failed, default=0)
    target = 1 if low == 0 else (low + now) // 2
    if target > low and target < now:
        shown = now if getattr(sc, name) is not None else f"{now} (the loader's own)"
        yield Step(f"{what} {shown} -> {target}", {name: float(target) if name == "duration" else target})
