"""`hunt`: waves until a hang, a budget, a wave cap or a sequential decision; the hazard."""

from __future__ import annotations

import os
import time
from typing import Final, Literal

from gvlstress.api.running import run
from gvlstress.campaign import explore, stats
from gvlstress.campaign import shards as campaign
from gvlstress.errors import UsageError
from gvlstress.model import (
    HuntResult,
    WaveResult,
    plural,
)
from gvlstress.scenario import Scenario
from gvlstress.supervisor import Observer, StopFlag, delays
from gvlstress.system import cgroups


def _quota_ok() -> bool:
    """Can this process create a CPU-quota cgroup (so `hunt --explore` may try one)?"""
    return cgroups.writable()


DEFAULT: Final = "default"
"""`hunt(hangs=DEFAULT)`: stop at the first hang, unless exploring or testing sequentially (then
only the budget, the wave cap or the test's decision stops it). The CLI and the API share it."""


def default_hangs(explore_settings: bool, sequential: object) -> int | None:
    return None if explore_settings or sequential is not None else 1


def hunt(
    scenario: Scenario,
    hangs: int | Literal["default"] | None = DEFAULT,
    budget_s: float | None = None,
    observer: Observer | None = None,
    stop: StopFlag | None = None,
    command: tuple[str, ...] | None = None,
    keep_alive: float | None = None,
    explore_settings: bool = False,
    sequential: stats.Sprt | None = None,
) -> HuntResult:
    """Launch waves until `hangs` hung waves (None: never stop for hangs), the time budget, or
    `scenario.waves` waves. With `explore_settings`, spread the waves over settings around the
    scenario (threads, workers, amplifiers) by Thompson sampling, and rank them."""
    started = time.monotonic()
    stop_at = default_hangs(explore_settings, sequential) if hangs == DEFAULT else hangs

    def enough(waves: list[WaveResult]) -> str | None:
        found = sum(1 for w in waves if w.verdict.is_hang)
        if sequential is not None and (decided := sequential.decide(found, len(waves))):
            return f"the sequential test decided {decided} after {plural(len(waves), 'wave')}"
        if stop_at is not None and found >= stop_at:
            return f"{plural(found, 'hung wave')} found"
        if budget_s is not None and time.monotonic() - started >= budget_s:
            return f"time budget of {budget_s:g}s used"
        return None

    if explore_settings and scenario.preload:
        raise UsageError(
            "--explore varies thread settings that --preload fixes at import in the fork server",
            hint="drop one of them",
        )
    settings = (
        explore.arms(scenario, len(os.sched_getaffinity(0)), _quota_ok(), delays.library() is not None)
        if explore_settings
        else ()
    )
    result = run(
        scenario,
        observer=observer,
        stop=stop,
        command=command,
        until=enough,
        keep_alive=keep_alive,
        settings=settings,
    )
    waves = result.waves
    found = [i for i, w in enumerate(waves) if w.verdict.is_hang]
    to_hang = None
    seconds = None
    if found:
        first = found[0]
        to_hang = sum(w.batches for w in waves[: first + 1])
        seconds = sum(w.wall_s for w in waves[:first]) + (waves[first].detect_s or waves[first].wall_s)
    stopped = result.stopped or (
        "interrupted" if result.interrupted_by else f"wave cap of {scenario.waves} reached"
    )
    return HuntResult(
        run=result,
        stopped=stopped,
        hangs=len(found),
        waves=len(waves),
        batches=result.batches,
        cpu_minutes=result.cpu_minutes,
        hazard=stats.hazard(len(found), result.batches),
        per_cpu_minute=stats.per_cpu_minute(len(found), result.cpu_minutes),
        batches_to_hang=to_hang,
        seconds_to_hang=seconds,
        sequential=campaign.sequential_rate([w.verdict.is_hang for w in waves], sequential)
        if sequential
        else None,
    )
