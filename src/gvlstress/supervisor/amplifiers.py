"""Amplifiers: make a rare race happen more often, from outside an unmodified worker.

A race's hazard grows with the preemptions that land inside its window. These levers recreate
the conditions of hosts where races were reported, on any machine:

- ``squeeze``: every thread of a worker runs on the first N CPUs (a 16-thread pool on 1 CPU:
  "a pool sized for more cores than it gets"): the worker pins itself before the target is
  imported, so every thread the target starts inherits the mask; the supervisor checks (and
  re-pins a thread that set its own mask) on the heartbeat that reports the pool;
- ``cpu_quota``: the wave's workers run in a child cgroup with a CFS quota of that many cores
  (v2 ``cpu.max``, else v1 ``cpu.cfs_quota_us``), as the host of the #263 hang had 15.3 of 16
  (the wave's cgroups are `cgroups.WaveGroup`);
- ``burners``: N CPU-burning neighbour processes for the length of each wave;
- ``chaos`` and ``gang``: strict per-thread starvation in rr's manner, and one worker owning the
  machine at a time (`supervisor.chaos`);
- ``delays``: a preloaded layer delaying a worker's thread hand-offs, placed where hangs were
  found (`supervisor.delays`).

Each is applied from the moment the thing it acts on exists (workers join the quota's cgroup
themselves before the target runs) and recorded per wave in run.json with what was really
applied; a wave where it could not be applied says so. Everything is undone when the wave ends
(workers are killed, the cgroup removed, burners killed) and the watchdog covers a SIGKILLed
harness.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

from gvlstress.scenario import Scenario
from gvlstress.supervisor import delays
from gvlstress.supervisor.slots import Slot
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


def worker_records(
    sc: Scenario, squeezed: tuple[int, ...] | None, started: list[Slot], layer: delays.DelayLayer | None
) -> dict[str, dict[str, Any]]:
    """The levers checked in each started worker (--squeeze, --delays, --switch-interval), as
    run.json records them."""
    pinned, preloaded = [x.pinned for x in started], [x.preloaded for x in started]
    out: dict[str, dict[str, Any]] = {}
    if squeezed is not None and sc.squeeze:
        out["squeeze"] = squeeze_record(sc.squeeze, squeezed, pinned)
    if sc.delays is not None:
        out["delays"] = {
            "seed": sc.delays,
            "per_million": delays.PER_MILLION,
            "hot_per_million": delays.HOT_PER_MILLION,
            "max_us": delays.MAX_US,
            "workers": len(preloaded),
            "workers_loaded": sum(1 for p in preloaded if p),
        } | (layer.wave_record([x.pid for x in started if x.pid]) if layer is not None else {})
    if (interval := sc.switch_interval) is not None:
        reported = [x.switch_interval for x in started if x.switch_interval is not None]
        out["switch_interval"] = {
            "seconds": interval,
            "workers": len(started),
            "workers_reporting": len(reported),  # a hung worker never reports
            "workers_changed": sum(1 for r in reported if abs(r - interval) > 0.01 * interval),
        }
    return out


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
    if chaos and chaos.get("refused"):
        out.append(
            f"chaos: {chaos['refused']} thread stop(s) refused (ptrace not permitted here, or the thread "
            "was traced already)"
        )
    if chaos and not chaos["starvations"]:
        out.append("chaos: no thread was stopped (no worker was iterating long enough)")
    elif chaos and chaos.get("workers_touched", workers) < workers:
        out.append(f"chaos: acted on {chaos['workers_touched']} of {workers} workers")
    gang = applied.get("gang")
    if gang and not gang["turns"]:
        out.append("gang: no turn was taken (fewer than two workers were iterating at once)")
    burners = applied.get("burners")
    if burners and burners["running_at_end"] < burners["count"]:
        out.append(
            f"burners: {burners['running_at_end']} of {burners['count']} still burning at the wave's end"
        )
    delays = applied.get("delays")
    if delays and delays["workers_loaded"] < delays["workers"]:
        out.append(
            f"delays: the delay layer was mapped in {delays['workers_loaded']} of {delays['workers']} workers "
            "(a setuid interpreter, or a worker that ended before it was checked)"
        )
    switch = applied.get("switch_interval")
    if switch and switch["workers_changed"]:
        out.append(
            f"switch_interval: the target set its own GIL switch interval in {switch['workers_changed']} of "
            f"{switch['workers_reporting']} finished workers"
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
            "bytes_in_force": group.bytes_in_force(),
            "cgroup": str(group.memory),
            "oom_kills": group.oom_kills(),
            "peak_bytes": group.peak_bytes(),
        }
    if group.cpu is not None:
        out["cpu_quota"] = {
            "cores": group.cores,
            "cores_in_force": group.cores_in_force(),
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
