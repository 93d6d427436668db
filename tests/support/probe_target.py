"""Test targets: a worker that reports its imported modules, one that raises, one that aborts.

Used through ``--target probe_target:make`` with ``-o mode=modules|raise|abort|llvm_abort|switch`` and
``-o at=N`` (the batch on which slot 0 misbehaves; other slots stay healthy). ``llvm_abort``
prints what a poisoned numba cache prints (plus a planted secret) before it aborts. ``switch``:
slot 0 sets its own GIL switch interval (as a target that tunes it would).
``-o warm_marker=PATH`` asks for the harness's warm-up: the session's ``warm()`` writes its pid
and the environment it saw there (``-o warm=raise`` makes the warm-up fail).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from gvlstress.scenario import Scenario
from gvlstress.targets.base import TargetPlan


class _Session:
    def __init__(self, mode: str, at: int, slot: int) -> None:
        self.mode = mode
        self.at = at
        self.slot = slot
        self.batches = 0
        self.seen_interval = sys.getswitchinterval()  # as the target found it, at open
        if mode == "switch" and slot == 0:
            sys.setswitchinterval(0.002)

    def next_batch(self) -> object:
        self.batches += 1
        if self.slot == 0 and self.batches == self.at:
            if self.mode == "raise":
                raise RuntimeError(f"poisoned slot on batch {self.batches}")
            if self.mode == "abort":
                os.abort()
            if self.mode == "llvm_abort":
                os.write(2, b"loading cache from postgres://user:hunter2@db.internal/cache\n")
                os.write(2, LLVM_LINE.encode() + b"\n")
                os.abort()
        return b""

    def describe(self) -> dict[str, Any]:
        heavy = ("click", "rich", "psutil", "pytest", "gvlstress.cli", "gvlstress.supervisor")
        return {
            "heavy_modules": [m for m in heavy if m in sys.modules],
            "probe_wave": os.environ.get("PROBE_WAVE"),
            "switch_at_open": self.seen_interval,
        }


LLVM_LINE = "LLVM ERROR: Symbol not found: __gufunc__._ZN6seqpro6_numba16gufunc_translate"


class _WarmSession(_Session):
    def __init__(self, mode: str, at: int, slot: int, marker: str, warm: str) -> None:
        super().__init__(mode, at, slot)
        self.marker = marker
        self.warm_mode = warm

    def warm(self) -> None:
        if self.warm_mode == "raise":
            raise RuntimeError("warm-up failed on purpose")
        Path(self.marker).write_text(json.dumps({"pid": os.getpid(), "env": dict(os.environ)}))


def open_worker(options: dict[str, Any], seed: int, slot: int) -> _Session:
    mode, at = str(options.get("mode", "modules")), int(options.get("at", 1))
    if options.get("warm_marker"):
        return _WarmSession(mode, at, slot, str(options["warm_marker"]), str(options.get("warm", "ok")))
    return _Session(mode, at, slot)


class ProbeTarget:
    name = "probe"

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        return TargetPlan(
            entry="probe_target:open_worker",
            options=dict(scenario.options),
            env={"PROBE_WAVE": "wave-{wave}"},
            warm_up=bool(scenario.options.get("warm_marker")),
        )


def make() -> ProbeTarget:
    return ProbeTarget()
