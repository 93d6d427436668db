"""The ``shapes`` target: healthy workers that wait the ways real loaders wait.

Negative controls for `gvlstress selftest`: each mode makes one batch in ``every`` wait past the
stall floor in a way that ends from outside the waiting thread, while an idle rayon pool (the
native fixture's, started by one batch) and an idle ThreadPoolExecutor sit beside it. A
harness that calls any of these a hang raises false alarms on real loaders.

- ``read``: the batch blocks in ``read()`` on a pipe a thread writes to later (slow storage);
- ``sleep``: the batch sleeps (``clock_nanosleep``), as a rate limiter or a retry back-off does;
- ``future``: the batch waits on a future (a futex) whose thread is in a sleep, i.e. the
  wait chain leads to a thread that ends it by itself.

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

MODES = ("read", "sleep", "future")


def _late_write(fd: int, after_s: float) -> None:
    time.sleep(after_s)  # the delay is the behaviour under test (slow storage)
    os.write(fd, b"x")


class _Session:
    def __init__(self, mode: str, block_s: float, every: int) -> None:
        self.mode, self.block_s, self.every, self.n = mode, block_s, every, 0
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
        return self.pool.submit(time.sleep, self.block_s).result()

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
