"""Host facts for reports: interpreter, platform, CPU budget (affinity and cgroup quota), knobs.

A CFS quota is invisible to ``nproc`` and to affinity, yet it is what a worker pool really gets,
so the CPU budget is the smaller of the affinity size and the quota.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gvlstress import __version__
from gvlstress.model import HostFacts
from gvlstress.probes import cgroupfs
from gvlstress.system.knobs import thread_knobs
from gvlstress.system.redact import redact_tree


@dataclass(frozen=True)
class CpuBudget:
    cpu_count: int
    affinity: int
    quota: float | None
    """CPUs allowed by the cgroup CPU quota; None when unlimited or unknown."""
    quota_source: str | None

    @property
    def cpus(self) -> float:
        """What the process can really use: min(affinity, quota)."""
        return min(float(self.affinity), self.quota) if self.quota else float(self.affinity)


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def _cgroup_quota(
    root: Path = Path("/sys/fs/cgroup"), proc_cgroup: Path = Path("/proc/self/cgroup")
) -> tuple[float | None, str | None]:
    """CPUs allowed by the cgroups this process is in (v2 ``cpu.max``, v1 CFS quota): the
    tightest of its cgroup and their ancestors."""
    quota = cgroupfs.cpu_quota(root, proc_cgroup)
    return (quota.cores, quota.file) if quota is not None else (None, None)


def cpu_budget() -> CpuBudget:
    quota, source = _cgroup_quota()
    return CpuBudget(
        cpu_count=os.cpu_count() or 1,
        affinity=len(os.sched_getaffinity(0)),
        quota=quota,
        quota_source=source,
    )


def ptrace_facts() -> dict[str, Any]:
    """What decides whether py-spy, eu-stack or gdb may attach to a worker."""
    scope = _read(Path("/proc/sys/kernel/yama/ptrace_scope"))
    cap_eff = 0
    for line in (_read(Path("/proc/self/status")) or "").splitlines():
        if line.startswith("CapEff:"):
            cap_eff = int(line.split()[1], 16)
    return {
        "yama_ptrace_scope": int(scope) if scope and scope.isdigit() else None,
        "uid": os.getuid(),
        "cap_sys_ptrace": bool(cap_eff & (1 << 19)),
        "container": Path("/.dockerenv").exists() or Path("/run/.containerenv").exists(),
    }


def tools_snapshot() -> dict[str, Any]:
    """Diagnostic tools available on this host (paths and versions)."""
    from gvlstress.probes import native, pyspy, tools

    spy = pyspy.locate()
    nat = native.locate()
    return {
        "py_spy": {"path": spy, "version": pyspy.version(spy) if spy else None},
        "native_stack_tool": {"name": nat[0], "path": nat[1]} if nat else None,
        "cxxfilt": tools.find("c++filt"),
        "ptrace": ptrace_facts(),
    }


def snapshot() -> HostFacts:
    """What report readers need to know about the host; knobs only; every string redacted (the
    host's paths and names are a door a secret can come in by)."""
    budget = cpu_budget()
    libc, libc_version = platform.libc_ver()
    facts = HostFacts(
        host=socket.gethostname(),
        python=sys.version.split()[0],
        implementation=platform.python_implementation(),
        executable=sys.executable,
        platform=platform.platform(),
        machine=platform.machine(),
        kernel=platform.release(),
        libc=f"{libc} {libc_version}".strip(),
        cpu_count=budget.cpu_count,
        affinity=budget.affinity,
        cpu_quota=budget.quota,
        cpu_quota_source=budget.quota_source,
        cpu_budget=budget.cpus,
        thread_knobs=thread_knobs(os.environ),
        gvlstress=__version__,
        tools=tools_snapshot(),
    )
    return HostFacts(**redact_tree(dataclasses.asdict(facts)))
