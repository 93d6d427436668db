"""A target whose batch blocks in a pipe read(), as a loader on slow storage does.

``--target io_target:make -o block_s=S -o at=N``: on batch N of slot 0 the batch reads a pipe
whose writer thread writes only after S seconds (``block_s=0``: never: the write end is held by
a child that sleeps, storage that stopped answering). Other batches and slots read a byte that
is already there.
"""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path
from typing import Any

from gvlstress.scenario import Scenario
from gvlstress.targets.base import TargetPlan


def _late_writer(fd: int, after_s: float) -> None:
    threading.Event().wait(after_s)  # the delay *is* the behaviour under test (slow storage)
    os.write(fd, b"x")


class _Session:
    def __init__(self, block_s: float, at: int, slot: int) -> None:
        self.block_s, self.at, self.slot, self.n = block_s, at, slot, 0

    def next_batch(self) -> object:
        self.n += 1
        r, w = os.pipe()
        try:
            if self.slot == 0 and self.n == self.at:
                if self.block_s > 0:
                    threading.Thread(target=_late_writer, args=(w, self.block_s), daemon=True).start()
                else:  # the other end lives in a process that never writes (it dies with the wave)
                    subprocess.Popen(["sleep", "3600"], pass_fds=(w,))
                    os.close(w)
                    w = -1
            else:
                os.write(w, b"x")
            return os.read(r, 1)  # blocks until the writer writes
        finally:
            os.close(r)
            if w >= 0:
                os.close(w)

    def describe(self) -> dict[str, Any]:
        return {}


def open_worker(options: dict[str, Any], seed: int, slot: int) -> _Session:
    return _Session(float(options.get("block_s", 0)), int(options.get("at", 3)), slot)


class IoTarget:
    name = "io"

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        return TargetPlan(entry="io_target:open_worker", options=dict(scenario.options))


def make() -> IoTarget:
    return IoTarget()
