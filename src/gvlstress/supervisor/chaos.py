"""Scheduling perturbation from outside an unmodified worker: strict per-thread starvation (rr's
chaos mode) and gang scheduling (one worker owns the machine at a time).

- **Strict starvation** (``--chaos SEED``): a victim thread is *stopped*, not lowered: a
  ptrace-stop on its thread id (`system.threadstop`), so it does not run at all for its interval
  even when a CPU is free. rr's proportions: at most ~10% of a worker's threads are victims at a
  time (at least one), the main thread is the victim ~30% of the time (it holds the GIL and
  drives the loader), intervals are log-uniform between 1 ms and 2 s, and no thread is starved
  for more than ~20% of the wave. Seeded, so a hang can be replayed with the same seed as far as
  the kernel's scheduler allows.
- **Gang** (``--gang MS``): the wave's iterating workers take turns owning the machine, every
  other one stopped (SIGSTOP) for a slice of about MS ms: an intra-process race needs two of its
  threads to run at once, which N workers sharing a few cores rarely allow, while the wave still
  has N fresh workers.

Both run in one thread (the ptrace tracer must be the thread that seized). A probe enters
`quiet` first: every stopped thread and worker is resumed before it looks, and nothing is
stopped until it leaves. `stop()` resumes everything; if the harness dies, the kernel detaches
its tracees (they run again) and the watchdog kills the wave's workers (a SIGSTOPped one too).
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import signal
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from gvlstress.system.threadstop import ThreadStopper

QUIET_WAIT_S = 1.0
"""How long a probe waits for the perturber to resume what it stopped (it answers in <= 10 ms)."""


class Perturber:
    """Strict starvation and/or gang scheduling over the workers `pids()` returns."""

    MIN_S, MAX_S, DUTY, VICTIMS, MAIN = 0.001, 2.0, 0.2, 0.1, 0.3

    def __init__(
        self,
        seed: int,
        pids: Callable[[], list[int]],
        *,
        strict: bool,
        gang_ms: int = 0,
        chaos_seed: int | None = None,
    ) -> None:
        self.chaos_seed = chaos_seed
        self.rng = random.Random(seed)
        self.pids = pids
        self.strict = strict
        self.gang_s = gang_ms / 1000.0
        self.quiet = _Quiet(self)
        """Held by a probe: everything resumed, nothing stopped while it is held."""
        self._cond = threading.Condition()
        self._holds = 0
        self._asked = 0
        self._answered = 0
        self._halt = threading.Event()
        self._stopper: ThreadStopper | None = None
        self._until: dict[int, tuple[int, float]] = {}
        """tid -> (its worker, when it is resumed)."""
        self._spent: dict[int, float] = {}
        self._started = time.monotonic()
        self._gang_stopped: dict[int, float] = {}
        """worker -> when the gang stopped it."""
        self.held: dict[int, float] = {}
        """worker -> seconds its threads (one stop) or the whole of it (the gang) were held
        stopped so far: what a batch's time owes to the perturbation, not to the loader."""
        self._next_turn = 0.0
        self._owner: int | None = None
        self.starvations = 0
        self.main_starvations = 0
        self.starved_s = 0.0
        self.refused = 0
        self.turns = 0
        self.touched: set[int] = set()
        self._thread = threading.Thread(target=self._run, name="gvlstress-chaos", daemon=True)

    @classmethod
    def for_wave(
        cls, chaos: int | None, seed: int, wave: int, pids: Callable[[], list[int]], gang_ms: int
    ) -> Perturber:
        """A wave's perturber: seeded by --chaos (else the run's seed) and the wave's index."""
        base = chaos if chaos is not None else seed
        return cls(base * 1_000_003 + wave, pids, strict=chaos is not None, gang_ms=gang_ms, chaos_seed=chaos)

    def start(self) -> Perturber:
        self._thread.start()
        return self

    # -- the loop (one thread: the tracer) --------------------------------------------------
    def _run(self) -> None:
        self._stopper = ThreadStopper()
        try:
            while not self._halt.wait(self.rng.uniform(0.001, 0.01)):
                with self._cond:
                    if self._holds:
                        self._resume_all()
                        self._answered = self._asked
                        self._cond.notify_all()
                        continue
                now = time.monotonic()
                self._expire(now)
                pids = self.pids()
                if self.gang_s and now >= self._next_turn:
                    self._turn(pids, now)
                if self.strict:
                    for pid in pids:
                        if pid not in self._gang_stopped:
                            self._starve(pid, now)
        finally:
            self._resume_all()
            with self._cond:
                self._answered = self._asked
                self._cond.notify_all()

    def _expire(self, now: float) -> None:
        for tid in [t for t, (_, until) in self._until.items() if until <= now]:
            self._resume(tid, now)

    def _resume(self, tid: int, now: float) -> None:
        """Resume `tid`; a stop cut short (a probe) gives back the part it did not use."""
        assert self._stopper is not None
        pid, until = self._until.pop(tid)
        self._stopper.resume(tid)
        unused = max(0.0, until - now)
        self._spent[tid] -= unused
        self.starved_s -= unused
        self.held[pid] = self.held.get(pid, 0.0) - unused

    def _starve(self, pid: int, now: float) -> None:
        """Stop one more thread of `pid` if fewer than its share of victims are stopped."""
        assert self._stopper is not None
        try:
            tids = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            return
        held = sum(1 for w, _ in self._until.values() if w == pid)
        if held >= max(1, round(self.VICTIMS * len(tids))) or self.rng.random() > 0.5:
            return
        others = [t for t in tids if t != pid]
        tid = pid if not others or self.rng.random() < self.MAIN else self.rng.choice(others)
        budget = self.DUTY * max(now - self._started, self.MIN_S) - self._spent.get(tid, 0.0)
        if tid in self._until or budget < self.MIN_S:
            return
        span = min(math.exp(self.rng.uniform(math.log(self.MIN_S), math.log(self.MAX_S))), budget)
        if not self._stopper.stop(tid):
            self.refused += 1
            return
        self._until[tid] = (pid, now + span)
        self._spent[tid] = self._spent.get(tid, 0.0) + span
        self.held[pid] = self.held.get(pid, 0.0) + span
        self.starvations += 1
        self.main_starvations += tid == pid
        self.starved_s += span
        self.touched.add(pid)

    def _turn(self, pids: list[int], now: float) -> None:
        """Hand the machine to the next worker: it runs, every other iterating worker is stopped."""
        self._next_turn = now + self.gang_s * self.rng.uniform(0.5, 1.5)
        live = sorted(pids)
        if len(live) < 2:
            self._continue(set(self._gang_stopped), now)
            return
        i = (
            (live.index(self._owner) + 1) % len(live)
            if self._owner in live
            else self.rng.randrange(len(live))
        )
        self._owner = live[i]
        self._continue({self._owner}, now)
        for pid in live:
            if pid != self._owner and pid not in self._gang_stopped:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGSTOP)
                    self._gang_stopped[pid] = now
                    self.touched.add(pid)
        self.turns += 1

    def _continue(self, pids: set[int], now: float) -> None:
        for pid in pids & set(self._gang_stopped):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)
            self.held[pid] = self.held.get(pid, 0.0) + now - self._gang_stopped.pop(pid)

    def _resume_all(self) -> None:
        if self._stopper is not None:
            now = time.monotonic()
            for tid in list(self._until):  # every thread the stopper holds is in _until
                self._resume(tid, now)
        self._continue(set(self._gang_stopped), time.monotonic())

    # -- the supervisor's side --------------------------------------------------------------
    @property
    def halted(self) -> bool:
        return self._halt.is_set()

    def stop(self) -> dict[str, dict[str, Any]]:
        """Halt, resume every thread and worker stopped, and say what each lever did (run.json's
        per-wave ``chaos`` and ``gang`` records)."""
        self._halt.set()
        self._thread.join(timeout=5)
        out: dict[str, dict[str, Any]] = {}
        touched = len(self.touched)
        if self.strict:
            out["chaos"] = {
                "seed": self.chaos_seed,
                "workers_touched": touched,
                "starvations": self.starvations,
                "main_thread_starvations": self.main_starvations,
                "starved_s": round(self.starved_s, 3),
                "refused": self.refused,
            }
        if self.gang_s:
            out["gang"] = {
                "gang_ms": round(self.gang_s * 1000),
                "turns": self.turns,
                "workers_touched": touched,
            }
        return out


class _Quiet(contextlib.AbstractContextManager["_Quiet"]):
    """A probe's hold: everything the perturber stopped runs again before the probe looks."""

    def __init__(self, owner: Perturber) -> None:
        self.owner = owner

    def __enter__(self) -> _Quiet:
        o = self.owner
        with o._cond:
            o._holds += 1
            o._asked += 1
            asked = o._asked
            o._cond.wait_for(lambda: o._answered >= asked or not o._thread.is_alive(), timeout=QUIET_WAIT_S)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        with self.owner._cond:
            self.owner._holds -= 1
