"""What each worker of a wave runs, and the birth environment it is started in.

The seed of a wave comes from the run's seed and the wave's global index (so shards never repeat
each other and one wave replays alone); a worker adds its slot. Thread knobs are applied in the
worker before the target is imported; what the harness itself sets in a worker's birth
environment (an inherited RAYON_NUM_THREADS, another interpreter) is set here around the start.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from gvlstress import worker
from gvlstress.scenario import Scenario
from gvlstress.supervisor.amplifiers import squeeze_cpus
from gvlstress.system import failure
from gvlstress.system.failure import Failure
from gvlstress.system.knobs import environ_with
from gvlstress.system.redact import redact_lines
from gvlstress.targets.base import TargetPlan

STDERR_TAIL_LINES = 50
_TAIL_BYTES = 64 * 1024


def wave_seed(seed: int, index: int) -> int:
    """A wave's seed from the run's seed and its global index: shards never repeat each other's
    waves, and one wave is reproducible alone (``--shard INDEX/WAVES --waves WAVES``)."""
    return (seed * 1_000_003 + index * 1009) % 2**63


def worker_spec(scenario: Scenario, plan: TargetPlan, wave: int | str, slot: int) -> worker.WorkerSpec:
    """What worker `slot` of wave `wave` runs: thread knobs first, then the plan's own env
    (where "{wave}" becomes the wave's index, e.g. a cache directory per wave)."""
    names = dict.fromkeys((*plan.rayon_env, *scenario.thread_env))
    env = {name: str(scenario.rayon) for name in names} if scenario.rayon is not None else {}
    env.update({k: v.replace("{wave}", str(wave)) for k, v in plan.env.items()})
    index = wave if isinstance(wave, int) else 0
    seed = (wave_seed(scenario.seed, index) + slot) % 2**63
    return worker.WorkerSpec(
        entry=plan.entry,
        options=dict(plan.options),
        env=env,
        iterations=scenario.iterations,
        duration=scenario.duration,
        seed=seed,
        rendezvous_s=scenario.startup_grace,
        affinity=squeeze_cpus(scenario.squeeze) if scenario.squeeze else None,
        switch_interval=scenario.switch_interval,
        result_bytes=scenario.result_bytes,
    )


def inherited_env(name: str, value: int | None) -> contextlib.AbstractContextManager[None]:
    """Give processes started inside the block `name=value` in their birth environment."""
    return environ_with({name: str(value)} if value is not None else {})


@contextmanager
def inherited_knobs(env: Mapping[str, str]) -> Iterator[None]:
    """Processes started inside the block are born with these thread knobs (an empty value:
    born without it, as on a host where it is not set); restored after."""
    gone = {k: os.environ.pop(k) for k, v in env.items() if not v and k in os.environ}
    try:
        with environ_with({k: v for k, v in env.items() if v}):
            yield
    finally:
        os.environ.update(gone)


@contextmanager
def spawn_without_main() -> Iterator[None]:
    """Keep spawned workers from re-importing the parent's ``__main__``.

    Under a console script (``gvlstress``, ``pytest``) spawn would re-run that script's imports
    in every worker (click, rich, pytest...), which slows start-up and puts harness code in the
    process under test. Workers need nothing from ``__main__``.
    """
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved: dict[str, Any] = {k: main.__dict__[k] for k in ("__file__", "__spec__") if k in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


@contextmanager
def worker_interpreter(ctx: Any, python: str | None, sys_path: tuple[str, ...] = ()) -> Iterator[None]:
    """Spawn workers with another interpreter for the block (multiprocessing keeps one global
    executable for spawn, so it is restored afterwards). A spawned child sets its sys.path to
    the parent's before anything else runs: under another Python version that is the wrong
    standard library, so the child gets its own interpreter's path (`sys_path`) instead."""
    if python is None:
        yield
        return
    from multiprocessing import spawn

    previous = spawn.get_executable()
    prepare = spawn.get_preparation_data

    def preparation(name: str) -> dict[str, Any]:
        data: dict[str, Any] = prepare(name)
        if sys_path:
            data["sys_path"] = list(sys_path)
        return data

    ctx.set_executable(python)
    spawn.get_preparation_data = preparation  # read by popen_spawn_posix at each start
    try:
        yield
    finally:
        spawn.get_preparation_data = prepare
        ctx.set_executable(previous)


def stderr_tail(directory: str | None, pid: int | None) -> tuple[str, ...]:
    """The last lines a worker wrote to stderr, redacted (empty when there is nothing)."""
    if directory is None or pid is None:
        return ()
    try:
        with open(worker.stderr_file(directory, pid), "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(start := max(0, fh.tell() - _TAIL_BYTES))
            data = fh.read()
    except OSError:
        return ()
    if start:  # a line cut at its start may have lost the name that says its value is a secret
        data = data[data.find(b"\n") + 1 :] if b"\n" in data else b""
    lines = data.decode("utf-8", "replace").splitlines()[-STDERR_TAIL_LINES:]
    return redact_lines(line.rstrip()[:1000] for line in lines)


def worker_failure(result: object, exc: BaseException | None) -> Failure:
    """What a worker's target raised, as the one record the supervisor accepts: the worker's
    own (checked again), else one made here from what the executor raised instead (a result
    that could not be sent back), else one saying what came back in its place."""
    if (record := failure.accept(result)) is not None:
        return record
    if exc is None:
        exc = TypeError(f"the worker returned a {failure.type_name(type(result))}, not a report")
    return failure.describe(exc)
