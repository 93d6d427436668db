"""The ``race`` target: real, pinned races from PyPI as amplification yardsticks.

Our own ``lock_order`` fault says how well a lever amplifies *our* race; these say it for races
nobody here wrote. Each runs in a venv with the pinned release (built once in the cache, as the
real-bug catalogue's are), and ``-o fixed=true`` runs the fixed release instead: the control,
which must never hang under any lever.

- ``logly`` (logly#122): two threads log through a Python file-like sink; 0.2.0 calls the sink
  while holding its Rust mutex *and* the GIL, so a GIL hand-off inside ``write()`` deadlocks
  (a GIL <-> native lock inversion). Fixed in 0.2.1. A hang needs a forced GIL switch inside the
  window: ``switch_s`` (``sys.setswitchinterval``) and ``lines`` per thread set the rate.
- ``h5py`` (h5py#2584): reader threads take h5py's global lock (``phil``) while the main thread
  forks; a child forked while a reader held it blocks on its first h5py call and the worker
  waits for it forever. Fixed in 3.14.0 (at-fork handlers take the lock around ``fork()``).
  ``forks`` per batch sets the rate.

Worker half (`open_worker`): stdlib only at import; the race's package is imported when a
session opens, in the pinned interpreter.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gvlstress.scenario import Scenario
    from gvlstress.targets.base import TargetPlan

PINS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "logly": (("logly==0.2.0",), ("logly==0.2.1",)),
    "h5py": (("h5py==3.13.0", "numpy==2.4.6"), ("h5py==3.14.0", "numpy==2.4.6")),
}
"""race -> (the buggy release's pins, the fixed release's)."""
DEFAULTS: dict[str, dict[str, Any]] = {
    "logly": {"threads": 2, "lines": 15},
    "h5py": {"readers": 2, "reads": 40, "sleep_s": 0.0005, "forks": 1},
}
"""Low-rate settings; `bench/amplify.py --race` re-measures the baseline in the same run as
every lever. Both races are GIL hand-offs inside a lock's window, so the GIL switch interval
governs their rate: the targets leave it alone unless asked (logly's ``switch_s``), so that
``--switch-interval`` is the lever that sets it."""
OPTIONAL: dict[str, tuple[str, ...]] = {"logly": ("switch_s",), "h5py": ()}


class _Sink:
    """A minimal Python file-like sink: logly calls ``write`` with its mutex held."""

    def __init__(self) -> None:
        self.lines = 0

    def write(self, text: str) -> None:
        self.lines += 1

    def flush(self) -> None:
        pass


class _Logly:
    def __init__(self, opts: dict[str, Any]) -> None:
        from logly import logger

        if "switch_s" in opts:
            sys.setswitchinterval(float(opts["switch_s"]))
        logger.remove()
        logger.add(_Sink(), format="{message}", colorize=False)
        self.logger, self.threads, self.lines = logger, int(opts["threads"]), int(opts["lines"])

    def describe(self) -> dict[str, Any]:
        from importlib.metadata import version

        return {"race": "logly", "logly": version("logly"), "switch_s": sys.getswitchinterval()}

    def next_batch(self) -> bytes:
        def log(i: int) -> None:
            for k in range(self.lines):
                self.logger.info("t{} line {}", i, k)

        ts = [threading.Thread(target=log, args=(i,), daemon=True) for i in range(self.threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        return b""


class _H5py:
    def __init__(self, opts: dict[str, Any], path: str) -> None:
        import h5py
        import numpy as np

        if not os.path.exists(path):
            with h5py.File(path, "w") as f:
                f.create_dataset("values", data=np.random.default_rng(0).random((1000, 100)))
        self.dset = h5py.File(path, "r")["values"]
        self.readers, self.reads = int(opts["readers"]), int(opts["reads"])
        self.sleep_s, self.forks = float(opts["sleep_s"]), int(opts["forks"])

    def describe(self) -> dict[str, Any]:
        from importlib.metadata import version

        return {"race": "h5py", "h5py": version("h5py")}

    def next_batch(self) -> bytes:
        def read() -> None:
            for i in range(self.reads):
                _ = self.dset[i % 1000]  # Dataset.__getitem__ holds phil
                time.sleep(self.sleep_s)  # outside phil: the reader's own pace (the race's workload)

        ts = [threading.Thread(target=read, daemon=True) for _ in range(self.readers)]
        for t in ts:
            t.start()
        for _ in range(self.forks):
            time.sleep(self.sleep_s)  # fork mid-stream, as a DataLoader's worker start does
            pid = os.fork()
            if pid == 0:
                try:
                    _ = self.dset.shape  # the child's first h5py call takes phil
                finally:
                    os._exit(0)
            os.waitpid(pid, 0)  # a child forked with phil held never returns: the worker hangs here
        for t in ts:
            t.join()
        return b""


def open_worker(options: dict[str, Any], seed: int, slot: int) -> _Logly | _H5py:
    if options["race"] == "logly":
        return _Logly(options)
    return _H5py(options, os.path.join(str(options["scratch"]), f"race-{slot}.h5"))


class RaceTarget:
    """Supervisor half: the pinned interpreter for the race (buggy or fixed) and its options."""

    name = "race"

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        import tempfile

        from gvlstress.errors import EnvironmentProblem, UsageError
        from gvlstress.probes import interpreter
        from gvlstress.targets.base import TargetPlan

        where = f"{scenario.source} [target]"
        opts = dict(scenario.options)
        race = opts.pop("race", None)
        if race not in PINS:
            raise UsageError(
                f"{where}: race must be one of {', '.join(PINS)}, got {race!r}", hint="-o race=logly"
            )
        fixed = opts.pop("fixed", False)
        if not isinstance(fixed, bool):
            raise UsageError(f"{where}: fixed must be true or false, got {fixed!r}")
        params = {**DEFAULTS[race], **opts}
        unknown = set(params) - set(DEFAULTS[race]) - set(OPTIONAL[race])
        if unknown:
            raise UsageError(f"{where}: unknown {race} option(s) {', '.join(sorted(unknown))}")
        for key, value in params.items():
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 10_000:
                raise UsageError(f"{where}: {key} must be a number in [0, 10000], got {value!r}")
        if scenario.fault != "none":
            raise UsageError("the race target has no fault modes", hint="the race is the fault")
        if scenario.python is not None:
            raise UsageError("the race target picks its own interpreter", hint="drop --python")
        pins = PINS[race][1 if fixed else 0]
        python, why = interpreter.interpreter(pins)
        if python is None:
            raise EnvironmentProblem(why, hint="the race target needs PyPI (or the pinned wheels) once")
        info = interpreter.probe(python)
        scratch = tempfile.mkdtemp(prefix="gvlstress-race-", dir=workdir)
        other = python != sys.executable  # a venv's python resolves to its base: compare as given
        return TargetPlan(
            entry="gvlstress.targets.races:open_worker",
            options={"race": race, "scratch": scratch, **params},
            versions={p.partition("==")[0]: p.partition("==")[2] for p in pins}
            | {"python": str(info["python"])},
            faults=("none",),
            python=python if other else None,
            sys_path=interpreter.sys_path(info) if other else (),
            facts={"race": race, "fixed": fixed, "pins": list(pins)},
            scratch=(scratch,),
        )
