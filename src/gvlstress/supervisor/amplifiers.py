"""Amplifiers: make a rare race happen more often, from outside an unmodified worker.

A race's hazard grows with the preemptions that land inside its window. These levers recreate
the conditions of hosts where races were reported, on any machine:

- ``squeeze``: every thread of a worker runs on the first N CPUs (a 16-thread pool on 1 CPU:
  "a pool sized for more cores than it gets"): the worker pins itself before the target is
  imported, so every thread the target starts inherits the mask; the supervisor checks (and
  re-pins a thread that set its own mask) on the heartbeat that reports the pool;
- ``cpu_quota``: the wave's workers run in a child cgroup with a CFS quota of that many cores
  (v2 ``cpu.max``, else v1 ``cpu.cfs_quota_us``), as genvarloader #263's host had 15.3 of 16
  (the wave's cgroups are `cgroups.WaveGroup`);
- ``burners``: N CPU-burning neighbour processes for the length of each wave;
- ``chaos``: rr's chaos mode applied from outside (`Chaos`): threads starved at random, placed
  and timed in the rr manner, now and then a whole worker stopped for a moment.

Each is applied from the moment the thing it acts on exists (workers join the quota's cgroup
themselves before the target runs) and recorded per wave in run.json with what was really
applied; a wave where it could not be applied says so. Everything is undone when the wave ends
(workers are killed, the cgroup removed, burners killed) and the watchdog covers a SIGKILLed
harness.
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gvlstress.system import watchdog
from gvlstress.system.cgroups import WaveGroup


def squeeze_cpus(cpus: int) -> tuple[int, ...]:
    """The first `cpus` CPUs this process may use: what a squeezed worker is pinned to."""
    return tuple(sorted(os.sched_getaffinity(0))[:cpus])


def squeeze(pid: int, allowed: tuple[int, ...]) -> tuple[int, int]:
    """Check that every thread of `pid` runs within `allowed`, pinning any that does not (a
    library that set its own mask); (threads within it now, threads seen)."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0, 0
    inside = total = 0
    for tid in tids:
        try:
            if not os.sched_getaffinity(int(tid)) <= set(allowed):
                os.sched_setaffinity(int(tid), allowed)
        except OSError:
            continue
        total += 1
        inside += 1
    return inside, total


BURN_TAG = "gvlstress-burner"
BURN = """import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
parent = int(sys.argv[2])
while os.getppid() == parent:  # orphaned (the harness gone): stop burning
    for _ in range(200_000):
        pass
"""
"""Spins; argv is `-c BURN gvlstress-burner HARNESS_PID` so a burner is always identifiable
and never outlives its harness by more than a few milliseconds, whatever else fails."""


@dataclass
class Burners:
    """CPU-burning neighbours for the length of a wave."""

    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @classmethod
    def start(cls, n: int) -> Burners:
        out = cls()
        for _ in range(n):
            p = subprocess.Popen(
                [sys.executable, "-c", BURN, BURN_TAG, str(os.getpid())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            watchdog.watch(p.pid)
            out.procs.append(p)
        return out

    def running(self) -> int:
        """Burners still burning (checked at the wave's end: the lever held all along)."""
        return sum(1 for p in self.procs if p.poll() is None)

    def stop(self) -> None:
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError):
                p.kill()
        for p in self.procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=5)


class Chaos:
    """rr's chaos mode from outside: starve worker threads, in the rr manner, while batches run.

    A thread beside the supervisor loop picks worker threads at random (rayon pool threads are
    native: all of a worker's threads are candidates) and starves each for a log-uniform time
    between 1 ms and 2 s (SCHED_IDLE and one CPU shared with its siblings), with each thread's
    starved time capped near 20% of the wave so far; now and then it stops a whole worker for a
    moment (SIGSTOP, then SIGCONT). Seeded, so a hang found can be replayed with the same seed as
    far as the scheduler allows. Probes hold `quiet` so they never see a state chaos made, and
    `stop()` restores every thread it touched.
    """

    MIN_S, MAX_S, DUTY = 0.001, 2.0, 0.2

    def __init__(self, seed: int, pids: Callable[[], list[int]]) -> None:
        self.rng = random.Random(seed)
        self.pids = pids
        self.quiet = threading.Lock()
        """Held by a probe: no stop is in progress while it is held."""
        self._halt = threading.Event()
        self._starved: dict[int, tuple[float, set[int]]] = {}
        """tid -> (until, affinity before)."""
        self._spent: dict[int, float] = {}
        self._started = time.monotonic()
        self.starvations = 0
        self.stops = 0
        self.touched: set[int] = set()
        """Workers at least one of whose threads was starved or stopped."""
        self._thread = threading.Thread(target=self._run, name="gvlstress-chaos", daemon=True)

    def start(self) -> Chaos:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._halt.wait(self.rng.uniform(0.001, 0.01)):
            now = time.monotonic()
            for tid in [t for t, (until, _) in self._starved.items() if until <= now]:
                self._restore(tid)
            pids = self.pids()
            if not pids:
                continue
            pid = self.rng.choice(pids)
            if self.rng.random() < 0.01:
                self._stop_briefly(pid)
                continue
            try:
                tids = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
            except OSError:
                continue
            tid = self.rng.choice(tids)
            elapsed = max(now - self._started, 1e-3)
            if tid in self._starved or self._spent.get(tid, 0.0) > self.DUTY * elapsed:
                continue
            span = math.exp(self.rng.uniform(math.log(self.MIN_S), math.log(self.MAX_S)))
            self._starve(pid, tid, min(span, self.DUTY * elapsed + self.MIN_S))

    def _starve(self, pid: int, tid: int, span: float) -> None:
        try:
            before = os.sched_getaffinity(tid)
            cpu = min(os.sched_getaffinity(pid))
            os.sched_setaffinity(tid, {cpu})
            os.sched_setscheduler(tid, os.SCHED_IDLE, os.sched_param(0))
        except OSError:
            return
        self._starved[tid] = (time.monotonic() + span, before)
        self._spent[tid] = self._spent.get(tid, 0.0) + span
        self.starvations += 1
        self.touched.add(pid)

    def _restore(self, tid: int) -> None:
        _, before = self._starved.pop(tid)
        with contextlib.suppress(OSError):
            os.sched_setscheduler(tid, os.SCHED_OTHER, os.sched_param(0))
            os.sched_setaffinity(tid, before)

    def _stop_briefly(self, pid: int) -> None:
        if not self.quiet.acquire(blocking=False):
            return  # a probe is looking: no stop now
        try:
            os.kill(pid, signal.SIGSTOP)
            self.stops += 1
            self.touched.add(pid)
            time.sleep(self.rng.uniform(0.001, 0.05))  # the stop itself is the perturbation
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)
            self.quiet.release()

    def stop(self) -> dict[str, Any]:
        """Halt, restore every starved thread, and say what was done."""
        self._halt.set()
        self._thread.join(timeout=5)
        for tid in list(self._starved):
            self._restore(tid)
        return {"starvations": self.starvations, "stops": self.stops, "workers_touched": len(self.touched)}


def gaps(applied: dict[str, Any], workers: int) -> list[str]:
    """What an amplifier that was on did not do in a wave, in words (empty: all of it held).

    A wave never claims a lever it could not pull: a worker that ended before its threads were
    checked, a worker that stayed outside the quota's cgroup, chaos that never acted, a burner
    that died."""
    out = []
    sq = applied.get("squeeze")
    if sq and sq["workers_pinned"] < workers:
        out.append(
            f"squeeze: {sq['workers_pinned']} of {workers} workers seen with every thread on "
            f"{sq['cpus']} CPU(s) (the others ended or failed before they could be checked)"
        )
    quota = applied.get("cpu_quota")
    if quota and quota["workers_joined"] < workers:
        out.append(f"cpu_quota: {quota['workers_joined']} of {workers} workers ran inside the quota's cgroup")
    chaos = applied.get("chaos")
    if chaos and not (chaos["starvations"] or chaos["stops"]):
        out.append("chaos: no thread was starved or stopped (no worker was iterating long enough)")
    elif chaos and chaos.get("workers_touched", workers) < workers:
        out.append(f"chaos: acted on {chaos['workers_touched']} of {workers} workers")
    burners = applied.get("burners")
    if burners and burners["running_at_end"] < burners["count"]:
        out.append(
            f"burners: {burners['running_at_end']} of {burners['count']} still burning at the wave's end"
        )
    kill = applied.get("kill_worker")
    if kill and not kill.get("killed"):
        out.append(f"kill_worker: no worker was killed ({kill['when']}: none reached that point)")
    return out


def group_record(group: WaveGroup) -> dict[str, dict[str, Any]]:
    """What the wave's cgroups applied (a quota, a memory limit), read before they are removed."""
    out: dict[str, dict[str, Any]] = {}
    if group.memory is not None:
        out["memory_limit"] = {
            "bytes": group.memory_bytes,
            "cgroup": str(group.memory),
            "oom_kills": group.oom_kills(),
            "peak_bytes": group.peak_bytes(),
        }
    if group.cpu is not None:
        out["cpu_quota"] = {
            "cores": group.cores,
            "cgroup": str(group.cpu),
            "cgroup_version": group.version,
            "workers_joined": len(group.joined),
            "nr_throttled": group.throttled(),
        }
    return out


def squeeze_record(
    cpus: int, cpu_ids: tuple[int, ...], pinned: list[tuple[int, int] | None]
) -> dict[str, Any]:
    """--squeeze as checked in each started worker (None: ended before it could be checked)."""
    checked = [p for p in pinned if p is not None]
    return {
        "cpus": cpus,
        "cpu_ids": list(cpu_ids),
        "workers": len(pinned),
        "workers_pinned": sum(1 for inside, total in checked if total and inside == total),
        "threads_pinned": sum(inside for inside, _ in checked),
        "threads": sum(total for _, total in checked),
    }
