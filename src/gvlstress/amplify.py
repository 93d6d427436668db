"""Amplifiers: make a rare race happen more often, from outside an unmodified worker.

A race's hazard grows with the preemptions that land inside its window. These levers recreate
the conditions of hosts where races were reported, on any machine:

- ``squeeze``: once a worker's pool exists, every one of its threads is pinned to the first N
  CPUs (a 16-thread pool on 1 CPU: "a pool sized for more cores than it gets");
- ``cpu_quota``: the wave's workers run in a child cgroup with a CFS quota of that many cores
  (v2 ``cpu.max``, else v1 ``cpu.cfs_quota_us``), as genvarloader #263's host had 15.3 of 16;
- ``burners``: N CPU-burning neighbour processes for the length of each wave.

Each is recorded in run.json; everything is undone when the wave ends (workers are killed, the
cgroup removed, burners killed) and the watchdog covers a SIGKILLed harness.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from gvlstress import watchdog
from gvlstress.errors import EnvironmentProblem

CGROUP_ROOT = Path(os.environ.get("GVLSTRESS_CGROUP_ROOT", "/sys/fs/cgroup"))
PERIOD_US = 100_000


def _write(path: Path, text: str) -> None:
    path.write_text(text)


@dataclass
class CpuQuota:
    """A child cgroup with a CPU quota; workers join it; removed at close."""

    cores: float
    path: Path
    version: int
    joined: list[int] = field(default_factory=list)

    @classmethod
    def create(cls, cores: float, root: Path = CGROUP_ROOT) -> CpuQuota:
        name = f"gvlstress-{os.getpid()}-{time.monotonic_ns()}"
        v2 = (root / "cgroup.controllers").is_file()
        parent = root if v2 else root / "cpu"
        path = parent / name
        try:
            if v2:
                controllers = (root / "cgroup.subtree_control").read_text()
                if "cpu" not in controllers.split():
                    _write(root / "cgroup.subtree_control", "+cpu")
            path.mkdir()
            quota = max(1000, int(cores * PERIOD_US))
            if v2:
                _write(path / "cpu.max", f"{quota} {PERIOD_US}")
            else:
                _write(path / "cpu.cfs_period_us", str(PERIOD_US))
                _write(path / "cpu.cfs_quota_us", str(quota))
        except OSError as exc:
            with contextlib.suppress(OSError):
                path.rmdir()
            raise EnvironmentProblem(
                f"--cpu-quota: cannot create a cgroup under {parent} ({exc.strerror or exc})",
                hint="needs root, or a cgroup v2 subtree delegated to you; drop --cpu-quota otherwise",
            ) from None
        return cls(cores, path, 2 if v2 else 1)

    def join(self, pid: int) -> None:
        """Move a whole worker process (all its threads) into the cgroup."""
        if pid in self.joined:
            return
        with contextlib.suppress(OSError):
            _write(self.path / "cgroup.procs", str(pid))
            self.joined.append(pid)

    def throttled(self) -> int | None:
        """How often the group hit its quota (v1 cpu.stat nr_throttled; v2 the same key)."""
        try:
            for line in (self.path / "cpu.stat").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "nr_throttled":
                    return int(value)
        except (OSError, ValueError):
            pass
        return None

    def close(self) -> None:
        """Remove the cgroup (its processes are gone by now; stragglers go back to the parent)."""
        for _ in range(50):
            try:
                self.path.rmdir()
                return
            except OSError:
                with contextlib.suppress(OSError):
                    for pid in (self.path / "cgroup.procs").read_text().split():
                        _write(self.path.parent / "cgroup.procs", pid)
                time.sleep(0.02)  # waiting for killed processes to leave the group


def squeeze(pid: int, cpus: int) -> int:
    """Pin every thread of `pid` to the first `cpus` CPUs it may use; returns threads pinned."""
    try:
        allowed = sorted(os.sched_getaffinity(pid))[:cpus]
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    done = 0
    for tid in tids:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(int(tid), allowed)
            done += 1
    return done


BURN = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass\n"


@dataclass
class Burners:
    """CPU-burning neighbours for the length of a wave."""

    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @classmethod
    def start(cls, n: int) -> Burners:
        out = cls()
        for _ in range(n):
            p = subprocess.Popen(
                [sys.executable, "-c", BURN],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            watchdog.watch(p.pid)
            out.procs.append(p)
        return out

    def stop(self) -> None:
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError):
                p.kill()
        for p in self.procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=5)
