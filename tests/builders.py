"""Shared builders of result types for unit tests: every argument has a plain default, so a test
names only what it is about (instead of 8 to 11 positional arguments copied across files)."""

from __future__ import annotations

from typing import Any

from gvlstress.model import HostFacts, RunResult, Shard, TargetFacts, Verdict, WaveResult, WorkerOutcome
from gvlstress.scenario import Scenario


def worker(verdict: Verdict = Verdict.OK, **kw: Any) -> WorkerOutcome:
    """A worker outcome: slot 0, pid 1, 10 batches, 3 threads, 1 CPU-s, a pool of 2 unless said."""
    base: dict[str, Any] = {
        "slot": 0,
        "pid": 1,
        "iterations": 10,
        "threads_max": 3,
        "cpu_s": 1.0,
        "rayon_threads": 2,
        "batch_s_max": 0.1,
    }
    return WorkerOutcome(verdict=verdict, **{**base, **kw})


def wave(
    index: int = 0, verdict: Verdict | None = None, workers: tuple[WorkerOutcome, ...] = (), **kw: Any
) -> WaveResult:
    """A wave of the given workers (one ok worker by default); its verdict is theirs unless said."""
    workers = workers or (worker(verdict or Verdict.OK),)
    v = verdict if verdict is not None else max((w.verdict for w in workers), key=lambda x: x.severity)
    return WaveResult(index=index, verdict=v, wall_s=kw.pop("wall_s", 1.0), workers=workers, **kw)


def run(
    waves: tuple[WaveResult, ...] = (),
    host: str = "host",
    shard: Shard | None = None,
    scenario: Scenario | None = None,
    **kw: Any,
) -> RunResult:
    """A run of the given waves on `host`."""
    base: dict[str, Any] = {
        "environment": HostFacts(host=host),
        "target": TargetFacts("native"),
        "started_at": "2026-11-22T00:00:00",
        "finished_at": "2026-11-22T01:00:00",
        "command": ("gvlstress", "run"),
        "run_dir": f"/r/{host}",
    }
    return RunResult(scenario=scenario or Scenario(), waves=waves, shard=shard, **{**base, **kw})
