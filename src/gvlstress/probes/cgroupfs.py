"""A process's cgroups, read (v1 and v2): CPU quota, memory limit and swap, cpuset.

Read only: making and removing cgroups is `system.cgroups.WaveGroup`. A limit anywhere up the
hierarchy binds the process, so each reader takes the tightest of its own cgroup and every
ancestor up to the mount. Inside a container the process's path (from /proc/PID/cgroup) names
the host's hierarchy, which is not mounted there: then the mount itself is the cgroup.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
UNLIMITED = 2**62
"""At or above this a v1 limit means none (v1 writes PAGE_COUNTER_MAX, 9223372036854771712)."""


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def _chain(mount: Path, rel: str) -> list[Path]:
    """The cgroup at `rel` under `mount` and its ancestors, innermost first (the mount alone when
    that path is not visible from here)."""
    own = mount / rel.strip("/") if rel.strip("/") else mount
    if not own.is_dir():
        return [mount]
    out = [own]
    while out[-1] != mount and mount in out[-1].parents:
        out.append(out[-1].parent)
    return out


def dirs(controller: str, root: Path = ROOT, proc_cgroup: Path = Path("/proc/self/cgroup")) -> list[Path]:
    """Where `controller`'s limits for the process live, innermost first; "" is cgroup v2's
    unified hierarchy. Empty when the process is in no such hierarchy."""
    for line in (_read(proc_cgroup) or "").splitlines():
        hid, controllers, rel = [*line.split(":", 2), "", ""][:3]
        names = [c for c in controllers.split(",") if c]
        if controller == "" and hid == "0" and not names:
            mounts = [m for m in (root, root / "unified") if (m / "cgroup.controllers").is_file()] or [root]
        elif controller and controller in names:
            mounts = [root / ",".join(names), *(root / n for n in names)]
        else:
            continue
        for mount in mounts:
            if mount.is_dir():
                return _chain(mount, rel)
    return []


@dataclass(frozen=True)
class Quota:
    """The tightest CPU quota over a process's cgroups."""

    quota_us: int
    period_us: int
    file: str
    version: int

    @property
    def cores(self) -> float:
        return self.quota_us / self.period_us


def cpu_quota(root: Path = ROOT, proc_cgroup: Path = Path("/proc/self/cgroup")) -> Quota | None:
    found: list[Quota] = []
    for d in dirs("", root, proc_cgroup):
        quota, _, period = (_read(d / "cpu.max") or "max").partition(" ")
        if quota.isdigit() and int(period or "100000") > 0:
            found.append(Quota(int(quota), int(period or "100000"), str(d / "cpu.max"), 2))
    for d in dirs("cpu", root, proc_cgroup):
        q, p = _read(d / "cpu.cfs_quota_us"), _read(d / "cpu.cfs_period_us")
        if q and p and q.isdigit() and p.isdigit() and int(q) > 0 and int(p) > 0:
            found.append(Quota(int(q), int(p), str(d / "cpu.cfs_quota_us"), 1))
    return min(found, key=lambda x: x.cores, default=None)


def cgroup_version(root: Path = ROOT) -> int | None:
    if (root / "cgroup.controllers").is_file():
        return 2
    return 1 if any((root / c).is_dir() for c in ("cpu", "cpu,cpuacct", "memory")) else None


@dataclass(frozen=True)
class MemoryLimit:
    limit: int | None
    """Bytes; None: no limit up the hierarchy."""
    swap_limit: int | None
    """Swap beyond `limit` the cgroup may use, in bytes; None: unlimited."""
    file: str | None


def _bytes(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() and int(text) < UNLIMITED else None


def memory_limit(root: Path = ROOT, proc_cgroup: Path = Path("/proc/self/cgroup")) -> MemoryLimit:
    limits: list[tuple[int, str]] = []
    swaps: list[int] = []
    for d in dirs("", root, proc_cgroup):
        if (limit := _bytes(_read(d / "memory.max"))) is not None:
            limits.append((limit, str(d / "memory.max")))
        if (swap := _bytes(_read(d / "memory.swap.max"))) is not None:
            swaps.append(swap)
    for d in dirs("memory", root, proc_cgroup):
        limit = _bytes(_read(d / "memory.limit_in_bytes"))
        if limit is not None:
            limits.append((limit, str(d / "memory.limit_in_bytes")))
        both = _bytes(_read(d / "memory.memsw.limit_in_bytes"))
        if both is not None:  # memory + swap: the swap allowed is what it adds
            swaps.append(max(0, both - (limit if limit is not None else both)))
    tightest = min(limits, default=None)
    return MemoryLimit(
        tightest[0] if tightest else None, min(swaps, default=None), tightest[1] if tightest else None
    )


def cpuset(root: Path = ROOT, proc_cgroup: Path = Path("/proc/self/cgroup")) -> str | None:
    """The CPUs the process's cpuset allows (effective), e.g. 0-15."""
    for d in dirs("", root, proc_cgroup)[:1]:
        if text := _read(d / "cpuset.cpus.effective"):
            return text
    for d in dirs("cpuset", root, proc_cgroup)[:1]:
        if text := _read(d / "cpuset.effective_cpus") or _read(d / "cpuset.cpus"):
            return text
    return None
