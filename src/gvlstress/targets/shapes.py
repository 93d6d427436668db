"""The ``shapes`` target: workers that wait the ways real loaders wait, healthy or hung.

Negative controls for `gvlstress selftest`: each healthy mode makes one batch in ``every`` wait
past the stall floor in a way that ends from outside the waiting thread, while an idle rayon
pool (the native fixture's, started by one batch) and an idle ThreadPoolExecutor sit beside it.
A harness that calls any of these a hang raises false alarms on real loaders.

- ``read``: the batch blocks in ``read()`` on a pipe a thread writes to later (slow storage);
- ``sleep``: the batch sleeps (``clock_nanosleep``), as a rate limiter or a retry back-off does;
- ``future``: the batch waits on a future (a futex) whose thread is in a sleep, i.e. the
  wait chain leads to a thread that ends it by itself;
- ``pool``: the batch maps over a ``multiprocessing.Pool`` whose task sleeps (the launcher
  waits for a result while a worker runs its task);
- ``child``: the batch reads a pipe that a live child process writes to later.

Positive controls, hangs with no lock cycle that the standard library makes (the ``every``-th
batch never returns): ``lost_task``, a Pool task calls ``os._exit`` (CPython bpo-22393: the
pool replaces the worker and never re-runs its task); ``lost_result``, a task raises an
exception that cannot be rebuilt in the parent, so the Pool's result handler dies (bpo-35311);
``peer_gone``, a child process exits while the worker kept its end of their pipe, and the
worker waits in ``recv()`` for it.

Worker half: stdlib only at import time (the native fixture is imported when a session opens).
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gvlstress.scenario import Scenario
    from gvlstress.targets.base import TargetPlan

HEALTHY = ("read", "sleep", "future", "pool", "child")
HANGS = ("lost_task", "lost_result", "peer_gone")
MODES = HEALTHY + HANGS


class Unrebuildable(Exception):
    """Pickles, but its __init__ needs an argument pickle does not pass back: unpickling it in
    the parent raises, in the Pool's result-handler thread (CPython bpo-35311)."""

    def __init__(self, what: str, detail: str) -> None:
        super().__init__(what)
        self.detail = detail


def _pool_task(x: float) -> float:
    """A Pool task: sleep `x` seconds; -1: exit the worker (a library calling exit()); -2: raise
    what the parent cannot rebuild."""
    if x == -1:
        os._exit(3)
    if x == -2:
        raise Unrebuildable("bad", "detail")
    time.sleep(x)  # the task's work
    return x


def _silent_child(conn: object) -> None:
    """Exits without sending anything."""


def _late_child(fd: int, after_s: float) -> None:
    time.sleep(after_s)  # the delay is the behaviour under test (a slow producer)
    os.write(fd, b"x")


def _late_write(fd: int, after_s: float) -> None:
    time.sleep(after_s)  # the delay is the behaviour under test (slow storage)
    os.write(fd, b"x")


class _Session:
    def __init__(self, mode: str, block_s: float, every: int) -> None:
        self.mode, self.block_s, self.every, self.n = mode, block_s, every, 0
        self.procs: Any = None
        if mode in ("pool", "lost_task", "lost_result"):
            import multiprocessing as mp

            self.procs = mp.get_context("spawn").Pool(2)
            self.procs.map(_pool_task, [0.0, 0.0])  # both workers up before the first batch
        self.pool = ThreadPoolExecutor(2, thread_name_prefix="shapes-idle")
        self.pool.submit(int).result()  # the executor's threads exist and go idle
        self.rayon_threads: int | None = None
        try:
            import gvlstress_native

            gvlstress_native.Loader(seed=0, batch_size=8).next_batch()  # a rayon pool, now idle
            self.rayon_threads = int(gvlstress_native.current_num_threads())
        except (ImportError, AttributeError):
            pass

    def next_batch(self) -> object:
        self.n += 1
        if self.n % self.every:
            return b""
        if self.mode == "read":
            r, w = os.pipe()
            threading.Thread(target=_late_write, args=(w, self.block_s), daemon=True).start()
            try:
                return os.read(r, 1)
            finally:
                os.close(r)
                os.close(w)
        if self.mode == "sleep":
            time.sleep(self.block_s)
            return b""
        if self.mode == "future":
            return self.pool.submit(time.sleep, self.block_s).result()
        if self.mode in ("pool", "lost_task", "lost_result"):
            bad = {"pool": self.block_s, "lost_task": -1.0, "lost_result": -2.0}[self.mode]
            return self.procs.map(_pool_task, [bad, 0.0])
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        if self.mode == "child":
            r, w = os.pipe()
            child = ctx.Process(target=_late_child, args=(w, self.block_s))
            child.start()
            os.close(w)
            try:
                return os.read(r, 1)
            finally:
                os.close(r)
                child.join()
        mine, theirs = ctx.Pipe()
        child = ctx.Process(target=_silent_child, args=(theirs,))
        child.start()
        child.join()  # gone; `theirs` stays open here, so recv() never sees EOF (peer_gone)
        return mine.recv()

    def describe(self) -> dict[str, Any]:
        return {"mode": self.mode, "rayon_threads": self.rayon_threads}


def open_worker(options: dict[str, Any], seed: int, slot: int) -> _Session:
    return _Session(str(options["mode"]), float(options["block_s"]), int(options["every"]))


class ShapesTarget:
    """Supervisor half: validate the mode and timings."""

    name = "shapes"

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        from gvlstress.errors import UsageError
        from gvlstress.targets.base import TargetPlan

        opts = {"mode": "read", "block_s": 1.5, "every": 3, **scenario.options}
        where = f"{scenario.source} [target]"
        if opts["mode"] not in MODES:
            raise UsageError(f"{where}: mode must be one of {', '.join(MODES)}, got {opts['mode']!r}")
        if not isinstance(opts["block_s"], (int, float)) or not 0 < opts["block_s"] <= 600:
            raise UsageError(
                f"{where}: block_s must be a number of seconds in (0, 600], got {opts['block_s']!r}"
            )
        if type(opts["every"]) is not int or opts["every"] < 1:
            raise UsageError(f"{where}: every must be an integer >= 1, got {opts['every']!r}")
        unknown = set(opts) - {"mode", "block_s", "every"}
        if unknown:
            raise UsageError(f"{where}: unknown shapes option(s) {', '.join(sorted(unknown))}")
        if scenario.fault != "none":
            raise UsageError("the shapes target has no fault modes", hint="faults are for --target native")
        return TargetPlan(entry="gvlstress.targets.shapes:open_worker", options=opts)
