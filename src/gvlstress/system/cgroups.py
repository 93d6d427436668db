"""One wave's cgroups: containment always (where a hierarchy is writable), plus the CPU quota
and the memory limit when they are asked for.

Why: a worker's child that daemonizes itself leaves the worker's process tree (it is re-parented
to init) and its session, so no tree walk finds it, yet it is still in the cgroup its parent was
in. Workers join the wave's cgroups themselves before the target runs (`worker.join_cgroups`), so
every process they start, at any depth, is born inside; at the wave's end everything in the
containment cgroup is killed and the cgroups are removed (the watchdog does the same if the
harness dies first).

cgroup v2 (one unified directory: ``cgroup.kill``, ``cpu.max``, ``memory.max``,
``memory.events``) or v1 (``freezer`` for containment, else ``pids``; ``cpu``; ``memory``), as
root or in a delegated subtree. Where none is writable, containment falls back to the process
tree and an environment token (`proctree.sweep_owned`); a quota or a memory limit cannot, and
is refused in one line (exit 4).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from gvlstress.errors import EnvironmentProblem

CGROUP_ROOT = Path(os.environ.get("GVLSTRESS_CGROUP_ROOT", "/sys/fs/cgroup"))
PERIOD_US = 100_000
KILL_S = 5.0
"""How long a cgroup may take to empty once everything in it was sent SIGKILL."""
_POLL_S = 0.01


def _write(path: Path, text: str) -> None:
    path.write_text(text)


def _pids(path: Path) -> list[int]:
    try:
        return [int(x) for x in (path / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


@dataclass
class WaveGroup:
    """The cgroups of one wave (v2: one directory playing every role)."""

    version: int
    contain: Path
    """Where every worker and its descendants are: emptied (killed) when the wave ends."""
    cpu: Path | None = None
    memory: Path | None = None
    cores: float | None = None
    memory_bytes: int | None = None
    joined: list[int] = field(default_factory=list)

    @classmethod
    def create(
        cls,
        name: str,
        cores: float | None = None,
        memory_bytes: int | None = None,
        root: Path | None = None,
    ) -> WaveGroup | None:
        """The wave's cgroups, or None when no hierarchy is writable and nothing but containment
        was asked (EnvironmentProblem when a quota or a memory limit was)."""
        root = root if root is not None else CGROUP_ROOT
        made: list[Path] = []
        try:
            if (root / "cgroup.controllers").is_file():
                group = cls._v2(root, name, cores, memory_bytes, made)
            else:
                group = cls._v1(root, name, cores, memory_bytes, made)
        except OSError as exc:
            for d in reversed(made):
                with contextlib.suppress(OSError):
                    d.rmdir()
            if cores is None and memory_bytes is None:
                return None
            what = "--cpu-quota" if memory_bytes is None else "--memory-limit"
            raise EnvironmentProblem(
                f"{what}: cannot create a cgroup under {root} ({exc.strerror or exc})",
                hint=f"needs root, or a cgroup v2 subtree delegated to you; drop {what} otherwise",
            ) from None
        return group

    @classmethod
    def _v2(
        cls, root: Path, name: str, cores: float | None, memory_bytes: int | None, made: list[Path]
    ) -> WaveGroup:
        wanted = [c for c, on in (("cpu", cores is not None), ("memory", memory_bytes is not None)) if on]
        enabled = (root / "cgroup.subtree_control").read_text().split()
        for c in wanted:
            if c not in enabled:
                _write(root / "cgroup.subtree_control", f"+{c}")
        d = root / name
        d.mkdir()
        made.append(d)
        if cores is not None:
            _write(d / "cpu.max", f"{max(1000, int(cores * PERIOD_US))} {PERIOD_US}")
        if memory_bytes is not None:
            _write(d / "memory.max", str(memory_bytes))
            with contextlib.suppress(OSError):  # no swap to spill into: the limit is the limit
                _write(d / "memory.swap.max", "0")
        return cls(
            2,
            d,
            cpu=d if cores is not None else None,
            memory=d if memory_bytes is not None else None,
            cores=cores,
            memory_bytes=memory_bytes,
        )

    @classmethod
    def _v1(
        cls, root: Path, name: str, cores: float | None, memory_bytes: int | None, made: list[Path]
    ) -> WaveGroup:
        contain = next((root / h for h in ("freezer", "pids") if (root / h / "cgroup.procs").is_file()), None)
        if contain is None:
            raise OSError(2, "no freezer or pids hierarchy")
        d = contain / name
        d.mkdir()
        made.append(d)
        cpu = memory = None
        if cores is not None:
            cpu = root / "cpu" / name
            cpu.mkdir()
            made.append(cpu)
            _write(cpu / "cpu.cfs_period_us", str(PERIOD_US))
            _write(cpu / "cpu.cfs_quota_us", str(max(1000, int(cores * PERIOD_US))))
        if memory_bytes is not None:
            memory = root / "memory" / name
            memory.mkdir()
            made.append(memory)
            _write(memory / "memory.limit_in_bytes", str(memory_bytes))
            with contextlib.suppress(OSError):  # no swap to spill into (memsw may be off)
                _write(memory / "memory.memsw.limit_in_bytes", str(memory_bytes))
        return cls(1, d, cpu=cpu, memory=memory, cores=cores, memory_bytes=memory_bytes)

    @property
    def dirs(self) -> list[Path]:
        return list(dict.fromkeys(d for d in (self.contain, self.cpu, self.memory) if d is not None))

    @property
    def procs_files(self) -> list[str]:
        """What a worker writes its pid to, first thing, to join every role."""
        return [str(d / "cgroup.procs") for d in self.dirs]

    def join(self, pid: int) -> bool:
        """Make sure a process is in every role's cgroup (it joins itself; this is the check,
        and a second chance); True when it is in all of them."""
        if pid in self.joined:
            return True
        for d in self.dirs:
            with contextlib.suppress(OSError):
                _write(d / "cgroup.procs", str(pid))
        if all(pid in _pids(d) for d in self.dirs):
            self.joined.append(pid)
            return True
        return False

    def members(self) -> list[int]:
        return _pids(self.contain)

    def kill_all(self, timeout: float = KILL_S) -> list[int]:
        """SIGKILL everything in the containment cgroup, at any depth, daemonized or not, and
        wait (bounded) until it is empty; the pids that were killed."""
        killed: list[int] = []
        end = time.monotonic() + timeout
        while (pids := self.members()) and time.monotonic() < end:
            new = [p for p in pids if p not in killed]
            killed += new
            if self.version == 2 and (self.contain / "cgroup.kill").exists():
                with contextlib.suppress(OSError):
                    _write(self.contain / "cgroup.kill", "1")
            else:
                frozen = self._freeze(True)  # nothing forks out of the way while it is swept
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                if frozen:
                    self._freeze(False)  # a frozen task acts on SIGKILL only once thawed
            time.sleep(_POLL_S)  # the kernel removes the dead from cgroup.procs as they exit
        return killed

    def _freeze(self, on: bool) -> bool:
        state = self.contain / "freezer.state"
        if not state.exists():
            return False
        with contextlib.suppress(OSError):
            _write(state, "FROZEN" if on else "THAWED")
            if on:
                end = time.monotonic() + 1.0
                while state.read_text().strip() == "FREEZING" and time.monotonic() < end:
                    time.sleep(_POLL_S)  # freezing is asynchronous; bounded
            return True
        return False

    def throttled(self) -> int | None:
        """How often the quota throttled the group (cpu.stat nr_throttled, v1 and v2)."""
        if self.cpu is None:
            return None
        try:
            for line in (self.cpu / "cpu.stat").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "nr_throttled":
                    return int(value)
        except (OSError, ValueError):
            pass
        return None

    def cores_in_force(self) -> float | None:
        """The CPU quota as the kernel holds it (read back, quota / period), None without one."""
        if self.cpu is None:
            return None
        try:
            if self.version == 2:
                quota, period = (self.cpu / "cpu.max").read_text().split()[:2]
            else:
                quota = (self.cpu / "cpu.cfs_quota_us").read_text().strip()
                period = (self.cpu / "cpu.cfs_period_us").read_text().strip()
            return int(quota) / int(period) if int(quota) > 0 else None
        except (OSError, ValueError):
            return None

    def bytes_in_force(self) -> int | None:
        """The memory limit as the kernel holds it (read back: rounded to pages), None without one."""
        return self._memory_number("memory.max", "memory.limit_in_bytes")

    def oom_kills(self) -> int | None:
        """Processes the kernel's OOM killer killed inside the memory limit (v2 memory.events,
        v1 memory.oom_control's oom_kill), or None without a limit or a counter."""
        if self.memory is None:
            return None
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        try:
            for line in (self.memory / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return None

    def peak_bytes(self) -> int | None:
        """The most memory the group used (v2 memory.peak, v1 memory.max_usage_in_bytes)."""
        return self._memory_number("memory.peak", "memory.max_usage_in_bytes")

    def _memory_number(self, v2: str, v1: str) -> int | None:
        """A number the memory controller keeps (v2's file or v1's), None without a limit or the file."""
        if self.memory is None:
            return None
        try:
            return int((self.memory / (v2 if self.version == 2 else v1)).read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def close(self) -> list[int]:
        """Kill what is left inside, then remove every directory; the pids killed."""
        killed = self.kill_all()
        for d in self.dirs:
            remove(d)
        return killed


def remove(d: Path, timeout: float = KILL_S) -> None:
    """rmdir a cgroup, moving any straggler to the parent first (bounded)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            d.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            for pid in _pids(d):
                with contextlib.suppress(OSError):
                    _write(d.parent / "cgroup.procs", str(pid))
            time.sleep(_POLL_S)  # waiting for killed processes to leave the group


def kill_and_remove(d: Path) -> None:
    """What the watchdog does with a wave's cgroup when the harness died: kill every member
    (v2 cgroup.kill, else each pid, thawing a frozen freezer group), then remove it."""
    group = WaveGroup(2 if (d / "cgroup.kill").exists() else 1, d)
    group.kill_all()
    remove(d)


def writable(root: Path | None = None) -> bool:
    """Can this process make a wave cgroup here (so containment, a quota, a limit work)?"""
    group = WaveGroup.create(f"gvlstress-probe-{os.getpid()}-{time.monotonic_ns()}", root=root)
    if group is None:
        return False
    group.close()
    return True
