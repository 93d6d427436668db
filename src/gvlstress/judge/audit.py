"""Thread-cap audit: threads per worker x workers against the real CPU budget.

Pure: reads a RunResult, returns findings. Oversubscription is not a bug by itself, but it is the
amplifier of every race here, and an inherited ``RAYON_NUM_THREADS`` that a library only
``setdefault``s silently decides the pool size (the loader of issue #263 did). What a loader
does with its pool (the count it resolves, its cap) comes from its record, ``target.loader``.
"""

from __future__ import annotations

from gvlstress.model import AuditItem, RunResult, WorkerOutcome

__all__ = ["AuditItem", "audit"]


def audit(result: RunResult) -> tuple[AuditItem, ...]:
    env = result.environment
    sc = result.scenario
    budget = float(env.cpu_budget or env.affinity or 1)
    quota = env.cpu_quota
    items: list[AuditItem] = []
    workers = [w for wave in result.waves for w in wave.workers]
    pools = [w.rayon_threads for w in workers if w.rayon_threads]
    threads = [w.threads_max for w in workers if w.threads_max]
    n = sc.workers
    where = f"a CPU budget of {budget:g} (affinity {env.affinity}"
    where += f", cgroup quota {quota:g})" if quota else ", no cgroup quota)"
    requested_pool: int | None = sc.rayon or sc.inherit_rayon
    if pools or requested_pool:
        pool = max(pools) if pools else int(requested_pool or 0)
        seen = "" if pools else " (requested; no worker reported its pool)"
        total = n * pool
        items.append(
            AuditItem(
                "warn" if total > budget else "info",
                f"{n} workers x {pool} rayon threads{seen} = {total} pool threads"
                + (f" ({n * max(threads)} OS threads at most)" if threads else "")
                + f" on {where}: {total / budget:.1f}x "
                + ("oversubscribed" if total > budget else "the budget"),
            )
        )
    warmed = result.target.parent_warmed
    if warmed:
        items.append(
            AuditItem(
                "warn" if sc.start_method == "fork" else "info",
                f"--warm-parent ran {warmed} before the workers were started with {sc.start_method}: "
                "they inherit whatever pools that started",
            )
        )
    if quota and quota < float(env.affinity or 0):
        items.append(
            AuditItem(
                "warn",
                f"the cgroup CPU quota ({quota:g} CPUs) is below the affinity ({env.affinity} CPUs): "
                "nproc and os.sched_getaffinity over-report what workers really get",
            )
        )
    requested = sc.rayon
    inherited = {v for w in workers if (v := w.env_inherited.get("RAYON_NUM_THREADS")) is not None}
    for value in sorted(inherited):
        if requested is None:
            items.append(
                AuditItem(
                    "warn",
                    f"workers inherited RAYON_NUM_THREADS={value} from their environment and nothing overrode it: "
                    "a library that only does os.environ.setdefault() keeps it whatever it computes",
                )
            )
        elif str(requested) != value:
            items.append(
                AuditItem(
                    "info", f"workers inherited RAYON_NUM_THREADS={value}; --rayon {requested} replaced it"
                )
            )
    items += _resolved(result, workers)
    items += _recreated(result)
    if requested is not None:
        off = sorted({w.rayon_threads for w in workers if w.rayon_threads and w.rayon_threads != requested})
        if off:
            items.append(
                AuditItem("warn", f"asked for {requested} rayon threads, but pools of {off} were reported")
            )
    return tuple(items)


def _resolved(result: RunResult, workers: list[WorkerOutcome]) -> list[AuditItem]:
    """A loader that resolves its own count but only setdefault()s its pool variable: the
    inherited value decides the pool, whatever the loader resolved (its record names the keys
    its workers report both under)."""
    loader = result.target.loader
    got, after_key = loader.resolved_key, loader.env_after_key
    if not got or not after_key:
        return []
    pairs = {
        (str(w.target_info.get(got)), str(w.target_info.get(after_key)))
        for w in workers
        if w.target_info.get(got) is not None and w.target_info.get(after_key)
    }
    return [
        AuditItem(
            "warn",
            f"{loader.name or result.target.name} resolved {resolved} thread(s), but {loader.pool_env}={after} "
            f"survived its import (inherited, and only setdefault() was applied): rayon's pool has {after} threads",
        )
        for resolved, after in sorted(pairs)
        if resolved != after
    ]


def _recreated(result: RunResult) -> list[AuditItem]:
    """``--like``: the pool threads against the CPUs of the host being recreated, there and here;
    and for a loader that caps its own pool (its record's `PoolCap`: min(affinity, ceil(quota))),
    what the cap gives there."""
    rec = result.like
    if rec is None or rec.pool is None:
        return []
    cpu, n = rec.there.cpu, result.scenario.workers
    total = n * rec.pool
    here = result.scenario.cpu_quota or float(
        min(result.scenario.squeeze or rec.here.cpu.affinity, rec.here.cpu.affinity)
    )
    items = [
        AuditItem(
            "warn" if total > cpu.budget else "info",
            f"recreating host {rec.there.host or '?'}: {n} workers x {rec.pool} pool threads = {total} on "
            f"{cpu.budget:g} CPUs there ({total / cpu.budget:.1f}x); the waves here ran them on {here:g} "
            f"({total / here:.1f}x)",
        )
    ]
    loader = result.target.loader
    if loader.cap is not None:
        cap = min(cpu.affinity, -(-cpu.quota // 1)) if cpu.quota else cpu.affinity
        there = rec.there.packages.get(loader.package, "") if loader.package else ""
        unchanged = ": the cap does not shrink its pools there" + (
            f", so {loader.cap.unchanged}" if loader.cap.unchanged else ""
        )
        items.append(
            AuditItem(
                "info",
                f"{loader.name or result.target.name} {loader.cap.since}+ caps its pool at "
                f"min(affinity, ceil(quota)) = {int(cap)} on that host"
                + (f" (it ran {there})" if there else "")
                + (
                    unchanged
                    if cap >= rec.pool
                    else f": {loader.cap.releases} would run pools of {int(cap)} there"
                ),
            )
        )
    return items
