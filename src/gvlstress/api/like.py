"""``--like FILE``: recreate a host profile's conditions here, then check each wave had them.

`recreate` reads the profile (refused in one line when it is not one this gvlstress reads),
reads this machine (its profile, the workers' interpreter and packages, whether a cgroup can be
made; what the target's loader does with its pool, from its record), maps one onto the other
(`hosts.mapping`) and applies the result as a Scenario
transformation (`scenario.with_settings`): what the run's own options and scenario keys set
stays theirs. No supervisor code knows about profiles: the waves run the settings they are given,
and `check_wave` reads back from each finished wave whether the host's quota fraction, memory
limit, birth environment and pool size were in force (what was not joins the wave's
``not_applied``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from gvlstress.hosts.mapping import Here, finish, propose
from gvlstress.hosts.profile_file import read
from gvlstress.model import LoaderFacts, WaveResult
from gvlstress.model.profile import HostProfile, Recreation
from gvlstress.probes import interpreter
from gvlstress.probes import profile as profiles
from gvlstress.scenario import Scenario
from gvlstress.scenario_sources import with_settings
from gvlstress.system import cgroups
from gvlstress.system.redact import redact_path
from gvlstress.targets.registry import loader_facts

QUOTA_TOLERANCE = 0.01
"""A quota fraction within 1% of the host's is the same (the kernel keeps whole microseconds)."""
PAGE_TOLERANCE = 64 * 1024
"""A memory limit is kept in whole pages (4 KiB, 64 KiB on some arm64 kernels)."""


def load(path: str) -> HostProfile:
    return read(Path(path), redact_path(path))


def here(scenario: Scenario, there: HostProfile, loader: LoaderFacts) -> Here:
    """What the mapping needs of this machine: its profile, the workers' interpreter and packages,
    and what the release of the loader there does with an inherited pool setting."""
    python = scenario.python or sys.executable
    names = tuple(dict.fromkeys((*there.packages, *((loader.package,) if loader.package else ()))))
    workers = profiles.versions(python, names)
    version = str(workers.get("python", ""))
    minor = there.process.python.rsplit(".", 1)[0]
    found = None
    if minor and minor != version.rsplit(".", 1)[0]:
        found = interpreter.base_interpreter(minor)[0]
    release = workers.get("packages", {}).get(loader.package) if loader.package else None
    needs_cgroup = there.cpu.binding_quota is not None or there.memory.limit is not None
    mine = profiles.read()  # this machine, with the workers' interpreter and its packages
    process = replace(
        mine.process, python=version, executable=redact_path(str(workers.get("executable", python)))
    )
    return Here(
        profile=replace(mine, process=process, packages=dict(workers.get("packages", {}))),
        cgroups_writable=cgroups.writable() if needs_cgroup else True,
        python=version,
        packages=dict(workers.get("packages", {})),
        python_found=found,
        pool_key=loader.pool_key,
        keeps_inherited_rayon=loader.keeps_inherited(release),
        uses_spawn_only=scenario.python is not None or scenario.delays is not None,
    )


def recreate(scenario: Scenario, loader: LoaderFacts | None = None) -> tuple[Scenario, Recreation]:
    """The scenario with the profile's conditions filled in where it left its defaults, and the
    record of each condition (there, here, applied, scaled, the run's own, or not recreated).
    `loader`: the target's record (None: looked up by the scenario's target)."""
    assert scenario.like is not None
    there = load(scenario.like)
    facts = here(scenario, there, loader if loader is not None else loader_facts(scenario.target))
    shown = redact_path(scenario.like)
    proposal = propose(there, facts, shown)
    changed, kept = with_settings(scenario, proposal.settings)
    return changed, finish(proposal, kept, shown, there, facts.profile)


def _quota(wave: WaveResult, rec: Recreation, sc: Scenario) -> tuple[dict[str, Any], list[str]]:
    quota = rec.there.cpu.binding_quota
    if quota is None or "cpu_quota" not in rec.settings:
        return {}, []
    there = quota / rec.there.cpu.affinity
    cores = (wave.amplifiers.get("cpu_quota") or {}).get("cores_in_force")
    cpus = min(sc.squeeze or rec.here.cpu.affinity, rec.here.cpu.affinity)
    here = cores / cpus if isinstance(cores, (int, float)) else None
    record = {"there": round(there, 4), "here": round(here, 4) if here is not None else None}
    if here is None or abs(here - there) > QUOTA_TOLERANCE * there:
        shown = "none" if here is None else f"{100 * here:.1f}%"
        return record, [
            f"like: the CPU quota in force was {shown} of the CPUs, the host's {100 * there:.1f}%"
        ]
    return record, []


def _memory(wave: WaveResult, rec: Recreation) -> tuple[dict[str, Any], list[str]]:
    limit = rec.there.memory.limit
    if limit is None or "memory_limit" not in rec.settings:
        return {}, []
    got = (wave.amplifiers.get("memory_limit") or {}).get("bytes_in_force")
    record = {"there": limit, "here": got}
    if not isinstance(got, int) or abs(got - limit) > PAGE_TOLERANCE:
        return record, [f"like: the memory limit in force was {got}, the host's {limit} bytes"]
    return record, []


def _birth(wave: WaveResult, sc: Scenario) -> tuple[dict[str, Any], list[str]]:
    """Each reporting worker's birth environment against what the host's was."""
    want = {k: v for k, v in sc.inherit_env.items() if v}
    if sc.inherit_rayon is not None:
        want["RAYON_NUM_THREADS"] = str(sc.inherit_rayon)
    unset = [k for k, v in sc.inherit_env.items() if not v]
    reported = [w for w in wave.workers if w.target_info]  # a worker that never reported has no record
    matching = [
        w
        for w in reported
        if all(w.env_inherited.get(k) == v for k, v in want.items()) and not set(unset) & set(w.env_inherited)
    ]
    record = {"expected": want, "unset": unset, "workers": len(reported), "workers_matching": len(matching)}
    if len(matching) < len(reported):
        return record, [
            f"like: {len(matching)} of {len(reported)} workers were born with the host's thread knobs"
        ]
    return record, []


def _pool(wave: WaveResult, rec: Recreation) -> tuple[dict[str, Any], list[str]]:
    pools = sorted({w.rayon_threads for w in wave.workers if w.rayon_threads})
    record = {"there": rec.pool, "here": pools}
    if rec.pool is not None and pools and pools != [rec.pool]:
        return record, [f"like: pools of {'/'.join(map(str, pools))} threads here, {rec.pool} on the host"]
    return record, []


def check_wave(wave: WaveResult, rec: Recreation, sc: Scenario, say: Callable[[str], None]) -> WaveResult:
    """The wave with what it recreated read back (``amplifiers.like``) and the conditions it did
    not have added to its ``not_applied`` (each also told to `say` now)."""
    record: dict[str, Any] = {}
    gaps: list[str] = []
    for name, (part, more) in (
        ("quota_fraction", _quota(wave, rec, sc)),
        ("memory_limit", _memory(wave, rec)),
        ("birth_env", _birth(wave, sc)),
        ("pool", _pool(wave, rec)),
    ):
        if part:
            record[name] = part
        gaps += more
    amplifiers = dict(wave.amplifiers)
    amplifiers["like"] = record
    amplifiers["not_applied"] = [*amplifiers.get("not_applied", []), *gaps]
    for gap in gaps:
        say(f"wave {wave.index + 1}: {gap}")
    return replace(wave, amplifiers=amplifiers)
