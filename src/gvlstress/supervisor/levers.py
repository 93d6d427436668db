"""The amplifiers over one wave's life: the burners before the workers start; chaos, the gang
and ``--kill-worker`` once the workers exist; ``--squeeze`` checked on the beat that reports each
worker's pool; all halted (once) before anything is captured or killed; and the record of what
each really did.

`amplifiers` holds the levers themselves; this is when one wave pulls and releases them, kept out
of the watch loop (`wave`) so that the loop reads as watching, and the order that matters (every
thread chaos stopped is resumed before it is captured or killed) is kept in one place.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from gvlstress.scenario import Scenario
from gvlstress.supervisor import amplifiers
from gvlstress.supervisor.chaos import Perturber
from gvlstress.supervisor.delays import DelayLayer
from gvlstress.supervisor.provoke import Killer
from gvlstress.supervisor.slots import Slot
from gvlstress.supervisor.spec import wave_seed
from gvlstress.system.heartbeat import Board


class Levers:
    """The amplifiers of one wave, from before its first worker to its record."""

    def __init__(self, scenario: Scenario, index: int, board: Board) -> None:
        self.scenario = scenario
        self.index = index
        self.board = board
        self.squeezed = amplifiers.squeeze_cpus(scenario.squeeze) if scenario.squeeze else None
        """The CPUs a squeezed worker is pinned to (``--squeeze``); None: not squeezed."""
        self.burners: amplifiers.Burners | None = None
        self.chaos: Perturber | None = None
        """Strict starvation and/or the gang, while batches run."""
        self.killer: Killer | None = None
        self.applied: dict[str, Any] = {}
        """What the levers really did, as the wave's record keeps it (run.json's ``amplifiers``)."""

    def start_burners(self) -> None:
        """The CPU-burning neighbours, before any worker starts."""
        if self.scenario.burners:
            self.burners = amplifiers.Burners.start(self.scenario.burners)

    def pull(self, iterating: Callable[[], list[int]]) -> None:
        """Chaos or the gang, and ``--kill-worker``, once the workers exist (`iterating`: the
        workers in their batches now, the only ones chaos perturbs)."""
        sc = self.scenario
        if sc.perturbs:
            self.chaos = Perturber.for_wave(sc.chaos, sc.seed, self.index, iterating, sc.gang).start()
        if sc.kill_worker is not None:
            seed = wave_seed(sc.seed, self.index)
            self.killer = Killer(sc.kill_worker, seed, self.board, sc.workers, sc.iterations).start()

    def held(self) -> dict[int, float]:
        """Seconds chaos or the gang held each worker (by pid): silence that was not its own."""
        return self.chaos.held if self.chaos is not None else {}

    def quiet(self) -> contextlib.AbstractContextManager[object]:
        """Held while a worker is looked at: nothing stays stopped, nothing is stopped."""
        return self.chaos.quiet if self.chaos is not None else contextlib.nullcontext()

    def halt(self) -> None:
        """Halt chaos, the gang and ``--kill-worker`` (once each), everything they stopped
        resumed, and record what they did."""
        if self.chaos is not None and not self.chaos.halted:  # kept: what it held stays known
            self.applied |= self.chaos.stop()
        if self.killer is not None and "kill_worker" not in self.applied:
            self.applied["kill_worker"] = self.killer.stop()

    def check_squeeze(self, slots: list[Slot]) -> None:
        """``--squeeze`` in each live worker not checked yet (threads pinned, strays re-pinned):
        on the beat that reports its pool, then before teardown for the rest."""
        for s in slots:
            if s.outcome is not None or not (pid := s.pid):
                continue
            if self.squeezed is not None and s.pinned is None:
                inside, total = amplifiers.squeeze(pid, self.squeezed)
                s.pinned = (inside, total) if total else None

    def stop_burners(self) -> None:
        """End the burners, recording how many still ran at the wave's end."""
        if self.burners is not None:
            self.applied["burners"] = {
                "count": self.scenario.burners,
                "running_at_end": self.burners.running(),
            }
            self.burners.stop()

    def burner_pids(self) -> set[int]:
        """The burners' processes: the wave's own helpers, never its leftovers."""
        return {p.pid for p in (self.burners.procs if self.burners else [])}

    def record(self, started: list[Slot], delays: DelayLayer | None) -> dict[str, Any]:
        """What the levers did in this wave, checked in each worker that started, and what could
        not be applied."""
        self.applied |= amplifiers.worker_records(self.scenario, self.squeezed, started, delays)
        if self.applied:
            self.applied["not_applied"] = amplifiers.gaps(self.applied, len(started))
        return dict(self.applied)
