"""A host profile: what shapes thread scheduling (and so a race's odds) on one host, and the
record of recreating it on another.

`gvlstress doctor --export host.toml` reads a `HostProfile` (probes/profile.py) and writes it as
TOML (`hosts.profile_file`); `run --like host.toml` maps it onto settings of this machine
(`hosts.mapping`), applies them as a Scenario transformation (`scenario.with_settings`), and
keeps a `Recreation` in run.json: each condition there beside here, and what could not be made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PROFILE_SCHEMA = "gvlstress.host/1"
"""The one profile schema this gvlstress reads and writes; a reader refuses any other."""


@dataclass(frozen=True)
class CpuProfile:
    """The CPUs a process of the host may use, and the cgroup quota nproc and affinity hide."""

    count: int
    """CPUs online (os.cpu_count)."""
    affinity: int
    """CPUs the process may run on (sched_getaffinity)."""
    affinity_list: str = ""
    """Those CPUs as a list, e.g. 0-15."""
    cpuset: str | None = None
    """The cgroup's cpuset (effective CPUs), where a cpuset controller is mounted."""
    quota: float | None = None
    """Cores of CFS quota (quota / period), the tightest of the cgroup and its ancestors; None: no quota."""
    quota_us: int | None = None
    period_us: int | None = None
    quota_file: str | None = None
    cgroup_version: int | None = None
    """1 or 2; None when no cgroup filesystem was found."""

    @property
    def budget(self) -> float:
        """What a process there could really use: min(affinity, quota)."""
        return min(float(self.affinity), self.quota) if self.quota else float(self.affinity)

    @property
    def binding_quota(self) -> float | None:
        """The quota when it is below the affinity (otherwise it never throttles)."""
        return self.quota if self.quota is not None and self.quota < self.affinity else None


@dataclass(frozen=True)
class MemoryProfile:
    """The machine's memory and the cgroup's limit on it."""

    total: int | None = None
    """Bytes of RAM (MemTotal)."""
    swap_total: int | None = None
    """Bytes of swap the machine has (SwapTotal)."""
    limit: int | None = None
    """The cgroup's memory limit in bytes (the tightest up the hierarchy); None: no limit."""
    swap_limit: int | None = None
    """Swap the cgroup may use beyond `limit`, in bytes; None: as much as the machine has."""
    limit_file: str | None = None


@dataclass(frozen=True)
class ProcessProfile:
    """The interpreter and the multiprocessing start method of the pipeline."""

    python: str = ""
    """X.Y.Z of the interpreter."""
    implementation: str = ""
    executable: str = ""
    start_method: str | None = None
    """spawn, forkserver or fork when it was seen in use (a process's children); None: not seen."""
    start_method_how: str = ""
    """How it was known, or why not (e.g. "children of pid 4242 run multiprocessing.spawn")."""
    pid: int | None = None
    """The process whose conditions these are (``doctor --export --pid``); None: doctor's own."""


@dataclass(frozen=True)
class SystemProfile:
    kernel: str = ""
    glibc: str = ""
    machine: str = ""
    os: str = ""
    """platform.platform()."""


@dataclass(frozen=True)
class HostProfile:
    """Everything about one host that shapes thread scheduling, read there (never guessed):
    thread knobs only from its environment, values redacted where they could be secrets."""

    cpu: CpuProfile
    memory: MemoryProfile
    process: ProcessProfile
    system: SystemProfile
    threads: dict[str, str] = field(default_factory=dict)
    """Thread-count variables in the environment, as set (redacted where they could be secrets)."""
    pools: dict[str, int] = field(default_factory=dict)
    """Pool sizes measured in a fresh process with that environment: `rayon` (rayon's global
    pool, by gvlstress_native), and for each built-in loader whose record has a pool probe, the
    pool its workers get under its record's `pool_key` (and what else that probe measures, e.g.
    the count the loader resolved itself)."""
    packages: dict[str, str] = field(default_factory=dict)
    """Versions of the target's packages in the pipeline's interpreter."""
    host: str = ""
    exported_at: str = ""
    gvlstress: str = ""
    schema: str = PROFILE_SCHEMA


# Condition statuses: how one of the profile's conditions stands on this machine.
SAME = "same"
"""Already so here (nothing to do)."""
APPLIED = "applied"
"""Recreated as it was there."""
SCALED = "scaled"
"""Recreated in proportion: this machine is smaller."""
GIVEN = "given"
"""Left as the run's own setting said (an option or a scenario key wins over the profile)."""
MISSING = "not recreated"
"""Cannot be made here: a newer kernel, another glibc, more cores than exist..."""
UNKNOWN = "unknown"
"""The profile does not say (not seen on export)."""


@dataclass(frozen=True)
class Condition:
    """One condition of the profile's host, beside how it stands here."""

    name: str
    there: str
    here: str
    status: str
    note: str = ""
    setting: str | None = None
    """The scenario setting it became (cpu_quota, memory_limit...), if any."""


@dataclass(frozen=True)
class Recreation:
    """What ``--like`` did: the profile, this host, each condition, and what it could not make."""

    profile: str
    """The profile file as given (redacted)."""
    there: HostProfile
    here: HostProfile
    conditions: tuple[Condition, ...]
    settings: dict[str, Any] = field(default_factory=dict)
    """Scenario settings the profile set (those the run's own settings left at their defaults)."""
    pool: int | None = None
    """Threads per worker pool the host had (measured, or estimated when the profile has no
    measurement): what each wave's workers are checked against."""
    pool_how: str = ""
    not_recreated: tuple[str, ...] = ()
    """Each condition that could not be made here, in words (also in every wave's report)."""
