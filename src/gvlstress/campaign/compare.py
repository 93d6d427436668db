"""`gvlstress compare`: hang rates of runs side by side, with intervals and an exact test.

Pure: RunResults in, a `model.campaign.Comparison` out; reporters print it and write it as
Markdown.
"""

from __future__ import annotations

import statistics
from pathlib import Path

from gvlstress.campaign.stats import fisher_exact, rate
from gvlstress.model import RunResult
from gvlstress.model.campaign import Comparison, Pair, RunStats


def _versions(result: RunResult) -> str:
    key = result.target.loader.version_key
    seen: dict[str, set[str]] = {}
    for wave in result.waves:
        for w in wave.workers:
            if key and key in w.target_info:
                seen.setdefault(key, set()).add(str(w.target_info[key]))
    if not seen:
        return ", ".join(f"{k} {v}" for k, v in result.target.versions.items()) or "-"
    return ", ".join(f"{k} {'/'.join(sorted(v))}" for k, v in seen.items())


def run_stats(result: RunResult) -> RunStats:
    sc = result.scenario
    s = result.summary
    workers = [w for wave in result.waves for w in wave.workers]
    rates = [w.iterations / w.iter_s for w in workers if w.iter_s and w.iterations]
    threads = [w.threads_max for w in workers if w.threads_max]
    pools = sorted({w.rayon_threads for w in workers if w.rayon_threads})
    mode = result.target.options.get("mode")
    config = (
        f"{sc.workers} x {sc.rayon or 'default'} threads"
        + (f", inherited RAYON_NUM_THREADS={sc.inherit_rayon}" if sc.inherit_rayon else "")
        + (f", {mode}" if mode else "")
        + (f", fault {sc.fault}" if sc.fault != "none" else "")
    )
    return RunStats(
        run_dir=result.run_dir,
        name=Path(result.run_dir).name or sc.name,
        versions=_versions(result),
        config=config,
        waves=s.waves,
        hung=s.hung,
        errored=s.errored + s.crashed,
        rate=rate(s.hung, s.waves),
        batches=sum(w.iterations for w in workers),
        batches_per_s=statistics.median(rates) if rates else None,
        threads=(f"{statistics.median(threads):g} OS" if threads else "-")
        + (f", pool {'/'.join(map(str, pools))}" if pools else ""),
    )


def compare(results: list[RunResult]) -> Comparison:
    """Every run's stats, and each later run tested against the first (Fisher's exact test)."""
    runs = tuple(run_stats(r) for r in results)
    first = runs[0]
    pairs = tuple(
        Pair(0, i, fisher_exact(first.hung, first.waves - first.hung, r.hung, r.waves - r.hung))
        for i, r in enumerate(runs)
        if i > 0
    )
    hosts = tuple(
        host
        for stats_, r in zip(runs, results, strict=True)
        if r.like is not None
        for host in (
            (f"{stats_.name}: the profile's host", r.like.there),
            (f"{stats_.name}: ran on", r.like.here),
        )
    )
    return Comparison(runs, pairs, hosts=hosts)
