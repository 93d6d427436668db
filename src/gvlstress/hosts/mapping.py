"""``--like``: a host profile mapped onto settings of this machine, and what cannot be made.

Pure: two profiles (there, here) and a few facts about this machine in; the scenario settings
that recreate the host (each with the profile key it came from) and one `Condition` per thing
the profile says out. Scaled where this machine is smaller: a 15.3-of-16 quota becomes the same
fraction of the CPUs here; pools keep the host's size (oversubscription is what makes a race
likely, and a library that sizes its pool from the core count would size it smaller here).
Where this machine is bigger, the workers are pinned to as many CPUs as the host had. What no
setting can change (the kernel, glibc, more cores than exist, a Python or a package version
not installed for the workers) is said, never silently dropped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from gvlstress.model.profile import (
    APPLIED,
    GIVEN,
    MISSING,
    SAME,
    SCALED,
    UNKNOWN,
    Condition,
    HostProfile,
    Recreation,
)
from gvlstress.system.redact import REDACTED

MIN_MEMORY = 16 * 2**20
"""The smallest memory limit a run takes (scenario bounds)."""


@dataclass(frozen=True)
class Here:
    """What the mapping needs to know of this machine beyond its own profile."""

    profile: HostProfile
    cgroups_writable: bool
    python: str
    """X.Y.Z of the workers' interpreter here."""
    packages: dict[str, str] = field(default_factory=dict)
    """Versions in the workers' interpreter here (of the packages the profile names)."""
    python_found: str | None = None
    """An interpreter here of the profile's X.Y, for the hint (None: none found)."""
    pool_key: str = "rayon"
    """Which of the profile's measured pools the target's workers get (its loader's record)."""
    keeps_inherited_rayon: bool = True
    """An inherited RAYON_NUM_THREADS sizes the target's pool (rayon's own default); False when
    the release of the loader here overwrites it with its own count (its record says from which)."""
    uses_spawn_only: bool = False
    """--python or --delays: the workers must be spawned, whatever the host did."""


@dataclass(frozen=True)
class Proposal:
    settings: dict[str, tuple[Any, str]]
    conditions: tuple[Condition, ...]
    pool: int | None
    pool_how: str


def _size(n: int | None) -> str:
    if n is None:
        return "none"
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n} B"


def _cpus(there: HostProfile, here: Here, src: str) -> tuple[list[Condition], dict[str, tuple[Any, str]]]:
    a_t, a_h = there.cpu.affinity, here.profile.cpu.affinity
    shown = f"{a_t} ({there.cpu.affinity_list})" if there.cpu.affinity_list else str(a_t)
    out: list[Condition] = []
    settings: dict[str, tuple[Any, str]] = {}
    if a_h > a_t:
        settings["squeeze"] = (a_t, f"{src} [cpu] affinity")
        out.append(
            Condition("CPUs", shown, f"{a_t} of {a_h}: each worker pinned to them", APPLIED, "", "squeeze")
        )
    elif a_h == a_t:
        out.append(Condition("CPUs", shown, str(a_h), SAME))
    else:
        out.append(
            Condition(
                "CPUs",
                shown,
                str(a_h),
                MISSING,
                "whatever sizes itself from the core count sees the CPUs here",
            )
        )
    q = there.cpu.quota
    if q is None:
        out.append(Condition("CPU quota", "none", "none", SAME))
        return out, settings
    if q >= a_t:
        out.append(
            Condition("CPU quota", f"{q:g} cores (not below the {a_t} CPUs: never throttles)", "none", SAME)
        )
        return out, settings
    share = q / a_t
    there_text = f"{q:g} of {a_t} CPUs ({100 * share:.1f}%)"
    if not here.cgroups_writable:
        out.append(
            Condition(
                "CPU quota",
                there_text,
                "none",
                MISSING,
                "no writable cgroup here (run as root or in a delegated one)",
            )
        )
        return out, settings
    if a_h >= a_t:
        settings["cpu_quota"] = (q, f"{src} [cpu] quota")
        out.append(
            Condition(
                "CPU quota", there_text, f"{q:g} of {a_t} CPUs ({100 * share:.1f}%)", APPLIED, "", "cpu_quota"
            )
        )
    else:
        cores = max(0.01, round(share * a_h, 4))
        settings["cpu_quota"] = (cores, f"{src} [cpu] quota, scaled to the {a_h} CPUs here")
        out.append(
            Condition(
                "CPU quota",
                there_text,
                f"{cores:g} of {a_h} CPUs ({100 * cores / a_h:.1f}%)",
                SCALED,
                "the same fraction of the CPUs here",
                "cpu_quota",
            )
        )
    return out, settings


def _memory(there: HostProfile, here: Here, src: str) -> tuple[list[Condition], dict[str, tuple[Any, str]]]:
    m, total_here = there.memory, here.profile.memory.total
    limit = m.limit
    if limit is None:
        return [Condition("memory limit", "none", "none", SAME)], {}
    out: list[Condition] = []
    settings: dict[str, tuple[Any, str]] = {}
    if not here.cgroups_writable:
        out.append(Condition("memory limit", _size(limit), "none", MISSING, "no writable cgroup here"))
    elif limit < MIN_MEMORY:
        out.append(Condition("memory limit", _size(limit), "none", MISSING, "below the 16 MiB a run takes"))
    else:
        settings["memory_limit"] = (limit, f"{src} [memory] limit")
        out.append(
            Condition("memory limit", _size(limit), f"{_size(limit)} per wave", APPLIED, "", "memory_limit")
        )
        if total_here and limit > total_here:
            out.append(
                Condition(
                    "RAM",
                    _size(m.total),
                    _size(total_here),
                    MISSING,
                    "the limit is above this machine's RAM: memory runs out here before the limit does",
                )
            )
    swap = 0 if m.swap_limit == 0 or not m.swap_total else (m.swap_limit or m.swap_total)
    if swap:
        out.append(
            Condition(
                "swap",
                f"up to {_size(swap)} beyond the limit",
                "none",
                MISSING,
                "waves here run without swap beyond the limit",
            )
        )
    else:
        out.append(Condition("swap", "none beyond the limit", "none", SAME))
    return out, settings


def _count(value: str) -> int | None:
    """A thread count as a knob says it (ASCII digits, a count a machine can have), else None:
    ``²`` is a digit to `str.isdigit` and not to `int`."""
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 7 else None


def _knobs(there: HostProfile, here: Here, src: str) -> tuple[list[Condition], dict[str, tuple[Any, str]]]:
    """The host's thread knobs in every worker's birth environment, and this shell's others out."""
    out: list[Condition] = []
    env: dict[str, str] = {}
    settings: dict[str, tuple[Any, str]] = {}
    mine = here.profile.threads
    for name in sorted(set(there.threads) | set(mine)):
        value = there.threads.get(name)
        if value == REDACTED:
            out.append(Condition(name, REDACTED, "not set", MISSING, "its value was redacted on export"))
        elif value is None:
            env[name] = ""
            out.append(
                Condition(name, "not set", f"not set in the workers (this shell has {mine[name]})", APPLIED)
            )
        elif name == "RAYON_NUM_THREADS" and 0 < (_count(value) or 0) <= 4096:
            settings["inherit_rayon"] = (int(value), f"{src} [threads] {name}")
            out.append(
                Condition(name, value, f"{value}, inherited by every worker", APPLIED, "", "inherit_rayon")
            )
        else:
            env[name] = value
            out.append(
                Condition(name, value, f"{value}, inherited by every worker", APPLIED, "", "inherit_env")
            )
    if env:
        settings["inherit_env"] = (env, f"{src} [threads]")
    return out, settings


def _pool(
    there: HostProfile, here: Here, src: str
) -> tuple[Condition, dict[str, tuple[Any, str]], int | None, str]:
    """The threads per worker pool the host had, and --rayon where this machine would size it smaller."""
    a_t, a_h, key = there.cpu.affinity, here.profile.cpu.affinity, here.pool_key
    knob = there.threads.get("RAYON_NUM_THREADS", "")
    inherited = _count(knob) or None
    pool, how = there.pools.get(key), f"{key}'s pool, measured on export"
    if pool is None:
        quota = there.cpu.binding_quota
        pool = inherited if inherited and here.keeps_inherited_rayon else min(a_t, math.ceil(quota or a_t))
        how = (
            "estimated: the inherited RAYON_NUM_THREADS"
            if inherited and here.keeps_inherited_rayon
            else "estimated from the host's CPUs and quota"
        )
    there_text = f"{pool} threads per worker ({how})"
    if inherited == pool and here.keeps_inherited_rayon:
        return (
            Condition(
                "pool", there_text, f"{pool}: the inherited RAYON_NUM_THREADS sizes it here too", APPLIED
            ),
            {},
            pool,
            how,
        )
    if pool > a_h or a_h < a_t:
        origin = f"{src} [pools] {key} (this machine's {a_h} CPUs would size it differently)"
        return (
            Condition("pool", there_text, f"{pool} (--rayon {pool}: {a_h} CPUs here)", APPLIED, "", "rayon"),
            {"rayon": (pool, origin)},
            pool,
            how,
        )
    return (
        Condition("pool", there_text, f"{pool}: sized here as there (checked in each wave)", SAME),
        {},
        pool,
        how,
    )


def _versions(there: HostProfile, here: Here, src: str) -> tuple[list[Condition], dict[str, tuple[Any, str]]]:
    p, out = there.process, []
    settings: dict[str, tuple[Any, str]] = {}
    if p.start_method is None:
        out.append(
            Condition("start method", "not seen", "spawn (gvlstress's default)", UNKNOWN, p.start_method_how)
        )
    elif p.start_method != "spawn" and here.uses_spawn_only:
        out.append(
            Condition(
                "start method", p.start_method, "spawn", MISSING, "--python and --delays need spawned workers"
            )
        )
    else:
        settings["start_method"] = (p.start_method, f"{src} [process] start_method")
        out.append(Condition("start method", p.start_method, p.start_method, APPLIED, "", "start_method"))
    minor_t, minor_h = p.python.rsplit(".", 1)[0], here.python.rsplit(".", 1)[0]
    if not p.python:
        out.append(Condition("Python", "not read", here.python, UNKNOWN))
    elif minor_t != minor_h:
        where = (
            f"CPython {minor_t} is at {here.python_found}: make an environment with your loader there and pass --python"
            if here.python_found
            else f"no CPython {minor_t} here: install one (pyenv install {minor_t}) and pass --python"
        )
        out.append(Condition("Python", p.python, here.python, MISSING, where))
    else:
        out.append(Condition("Python", p.python, here.python, SAME))
    mine = here.profile.system
    for name, t, h, why in (
        ("kernel", there.system.kernel, mine.kernel, "futex and scheduler behaviour follow the kernel"),
        ("glibc", there.system.glibc, mine.glibc, "pthread locks and malloc follow glibc"),
        ("machine", there.system.machine, mine.machine, "another architecture"),
    ):
        out.append(Condition(name, t or "?", h or "?", SAME if t == h else MISSING, "" if t == h else why))
    differ = {k: v for k, v in there.packages.items() if here.packages.get(k) != v}
    for name, version in sorted(differ.items()):
        got = here.packages.get(name)
        out.append(
            Condition(
                name,
                version,
                got or "not installed",
                MISSING,
                f"pass --python with an environment that has {name}=={version}",
            )
        )
    if there.packages and not differ:
        out.append(
            Condition("packages", f"{len(there.packages)} versions", "the same for the workers here", SAME)
        )
    return out, settings


def propose(there: HostProfile, here: Here, src: str) -> Proposal:
    """The settings that recreate `there` here, each with the profile key it came from, and every
    condition of the profile beside how it stands here."""
    conditions: list[Condition] = []
    settings: dict[str, tuple[Any, str]] = {}
    for part in (_cpus, _memory, _knobs):
        got, more = part(there, here, src)
        conditions += got
        settings |= more
    pool_condition, more, pool, how = _pool(there, here, src)
    conditions.append(pool_condition)
    settings |= more
    got, more = _versions(there, here, src)
    return Proposal(settings | more, tuple(conditions + got), pool, how)


def finish(
    proposal: Proposal, kept: dict[str, Any], profile: str, there: HostProfile, here: HostProfile
) -> Recreation:
    """The record of a recreation once the run's own settings had their say (`kept`: those it
    kept instead of the profile's)."""
    conditions = []
    for c in proposal.conditions:
        if c.setting in kept and c.setting != "inherit_env":
            c = replace(c, here=f"{_shown(kept[c.setting])}, the run's own setting", status=GIVEN)
        elif c.setting == "inherit_env" and c.name in kept.get("inherit_env", {}):
            c = replace(c, here=f"{kept['inherit_env'][c.name]}, the run's own setting", status=GIVEN)
        conditions.append(c)
    applied = {k: v for k, (v, _) in proposal.settings.items() if k not in kept or k == "inherit_env"}
    return Recreation(
        profile=profile,
        there=there,
        here=here,
        conditions=tuple(conditions),
        settings=applied,
        pool=proposal.pool,
        pool_how=proposal.pool_how,
        not_recreated=tuple(missing(c) for c in conditions if c.status == MISSING),
    )


def missing(c: Condition) -> str:
    """A condition that could not be recreated, in one line."""
    return f"{c.name}: {c.there} there, {c.here} here" + (f" ({c.note})" if c.note else "")


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
