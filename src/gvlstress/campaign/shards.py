"""Campaigns of many launches: shards, merging shard results, and planning how many are needed.

A 0.1% hang rate needs ~3,000 clean launches to bound, which users run on many hosts (Slurm
arrays, CI matrices, Kubernetes indexed jobs). Shard I of N runs global waves I, I+N, ...; seeds
come from the run's seed and the global index, so shards never repeat each other and merging
their run.json files gives one run as if a single host had run every wave. Pure functions: the
API reads and writes files, the CLI prints.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

from gvlstress.campaign import stats
from gvlstress.errors import UsageError
from gvlstress.model import HostShard, RunResult, SequentialResult, Shard, WaveResult

IGNORED_IN_MATCH = ("name", "report_dir", "source", "description")
"""Scenario fields that may differ between shards of one campaign."""


def parse_shard(text: str, env: Mapping[str, str] | None = None) -> Shard:
    """'I/N', or 'auto': a Slurm array task (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of
    SLURM_ARRAY_TASK_COUNT) or a Kubernetes indexed job (JOB_COMPLETION_INDEX of
    GVLSTRESS_SHARD_COUNT)."""
    env = os.environ if env is None else env
    if text.strip().lower() == "auto":
        if "SLURM_ARRAY_TASK_ID" in env and "SLURM_ARRAY_TASK_COUNT" in env:
            first = env.get("SLURM_ARRAY_TASK_MIN", "0")
            return _shard(
                _int(env["SLURM_ARRAY_TASK_ID"], "SLURM_ARRAY_TASK_ID") - _int(first, "SLURM_ARRAY_TASK_MIN"),
                _int(env["SLURM_ARRAY_TASK_COUNT"], "SLURM_ARRAY_TASK_COUNT"),
                "--shard auto (Slurm array)",
            )
        if "JOB_COMPLETION_INDEX" in env:
            if "GVLSTRESS_SHARD_COUNT" not in env:
                raise UsageError(
                    "--shard auto: JOB_COMPLETION_INDEX is set but not the number of shards",
                    hint="set GVLSTRESS_SHARD_COUNT to the job's completions, or pass --shard I/N",
                )
            return _shard(
                _int(env["JOB_COMPLETION_INDEX"], "JOB_COMPLETION_INDEX"),
                _int(env["GVLSTRESS_SHARD_COUNT"], "GVLSTRESS_SHARD_COUNT"),
                "--shard auto (indexed job)",
            )
        raise UsageError(
            "--shard auto: no Slurm array (SLURM_ARRAY_TASK_ID) or indexed job (JOB_COMPLETION_INDEX) here",
            hint="pass --shard I/N",
        )
    index, sep, count = text.partition("/")
    if not sep:
        raise UsageError(f"--shard {text!r}: expected I/N (e.g. 0/4) or auto")
    return _shard(_int(index, "--shard I"), _int(count, "--shard N"), f"--shard {text}")


def _int(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise UsageError(f"{what}: expected a whole number, got {text!r}") from None


def _shard(index: int, count: int, origin: str) -> Shard:
    if not 1 <= count <= 100_000 or not 0 <= index < count:
        raise UsageError(f"{origin}: shard {index} of {count} is out of range (0 <= I < N, N >= 1)")
    return Shard(index, count)


def _scenario_key(run: RunResult) -> dict[str, Any]:
    return {k: v for k, v in run.scenario.to_dict().items() if k not in IGNORED_IN_MATCH}


def scenario_differences(runs: Sequence[RunResult]) -> list[str]:
    """'key: a vs b' for every scenario setting in which a run differs from the first."""
    first = _scenario_key(runs[0])
    out = []
    for run in runs[1:]:
        other = _scenario_key(run)
        for key in sorted(set(first) | set(other)):
            if first.get(key) != other.get(key):
                line = f"{key}: {first.get(key)!r} vs {other.get(key)!r}"
                if line not in out:
                    out.append(line)
    return out


def _dedupe(runs: Sequence[RunResult]) -> list[RunResult]:
    """The same run given twice (by path or by a copy) counts once; two runs that merely started
    in the same second on one host differ in their waves' wall times."""
    seen: set[tuple[str, str, str, tuple[tuple[int, float], ...]]] = set()
    out = []
    for run in runs:
        waves = tuple((w.index, w.wall_s) for w in run.waves)
        key = (run.started_at, run.finished_at, run.environment.host, waves)
        if key not in seen:
            seen.add(key)
            out.append(run)
    return out


def _order(run: RunResult) -> tuple[int, str, str]:
    return (run.shard.index if run.shard else -1, run.started_at, run.run_dir)


def hosts(runs: Sequence[RunResult]) -> tuple[HostShard, ...]:
    """Each input with its hang count and Fisher's exact test against the rest (Bonferroni)."""
    counts = [(sum(1 for w in r.waves if w.verdict.is_hang), len(r.waves)) for r in runs]
    total_hung = sum(h for h, _ in counts)
    total = sum(n for _, n in counts)
    out = []
    for run, (hung, n) in zip(runs, counts, strict=True):
        rest_hung, rest = total_hung - hung, total - n
        p = stats.fisher_exact(hung, n - hung, rest_hung, rest - rest_hung) if len(runs) > 1 else 1.0
        out.append(
            HostShard(
                run_dir=run.run_dir,
                shard=run.shard,
                environment=run.environment,
                command=run.command,
                waves=n,
                hung=hung,
                batches=run.batches,
                p_value=p,
                out_of_line=len(runs) > 1 and p < 0.05 / len(runs),
            )
        )
    return tuple(out)


def merge(
    runs: Sequence[RunResult], run_dir: str, command: tuple[str, ...], mixed: bool = False
) -> RunResult:
    """One run from many: waves in global order, every input's host facts, an outlier test.

    Deterministic: the same inputs in any order give the same result. Waves keep their global
    index when no two inputs share one (the shards of one campaign); otherwise (separate runs)
    they are numbered in input order and each says where it came from.
    """
    if not runs:
        raise UsageError("merge needs at least one run directory")
    ordered = sorted(_dedupe(runs), key=_order)
    differences = scenario_differences(ordered)
    if differences and not mixed:
        raise UsageError(
            f"the runs are of different scenarios ({'; '.join(differences[:3])})",
            hint="merge runs of one campaign, or pass --mixed to merge them anyway",
        )
    counts = [w.index for r in ordered for w in r.waves]
    collide = len(counts) != len(set(counts))
    waves: list[WaveResult] = []
    for run in ordered:
        for w in sorted(run.waves, key=lambda x: x.index):
            if collide:
                origin = f"{os.path.basename(run.run_dir.rstrip('/'))} wave {w.index + 1}"
                w = dataclasses.replace(w, index=len(waves), origin=origin)
            waves.append(w)
    if not collide:
        waves.sort(key=lambda w: w.index)
    warnings = [f"merged runs differ: {d}" for d in differences]
    for run in ordered:
        warnings += [x for x in run.warnings if x not in warnings]
    shards = {r.shard.count for r in ordered if r.shard}
    if len(shards) == 1 and not collide:
        count = shards.pop()
        missing = sorted(set(range(count)) - {r.shard.index for r in ordered if r.shard})
        if missing:
            warnings.append(f"shards missing from the merge: {', '.join(map(str, missing))} of {count}")
    first = ordered[0]
    return RunResult(
        scenario=first.scenario,
        environment=first.environment,
        target=first.target,
        waves=tuple(waves),
        started_at=min(r.started_at for r in ordered),
        finished_at=max(r.finished_at for r in ordered),
        command=command,
        run_dir=run_dir,
        interrupted_by=next((r.interrupted_by for r in ordered if r.interrupted_by is not None), None),
        warnings=tuple(warnings),
        hosts=hosts(ordered),
        like=first.like,  # the shards of a --like campaign recreate one profile (the first's record)
    )


def clean_launches(rate: float, confidence: float = 0.95) -> int:
    """Hang-free launches needed to claim 'hang rate < rate' at `confidence` (zero-failure
    planning: (1 - rate)^n <= 1 - confidence, so n >= ln(1 - confidence) / ln(1 - rate))."""
    if not 0 < rate < 1 or not 0 < confidence < 1:
        raise UsageError("--rate and --confidence must be between 0 and 1 (exclusive)")
    return math.ceil(math.log(1 - confidence) / math.log1p(-rate) - 1e-9)


def sequential_rate(outcomes: Sequence[bool], test: stats.Sprt) -> SequentialResult:
    """The SPRT on a configuration's hang rate per wave: 'at most p0' (H0) or 'at least p1' (H1)."""
    decision, used = test.first_decision(list(outcomes))
    events = sum(outcomes[:used])
    p0, p1 = f"{100 * test.p0:g}%", f"{100 * test.p1:g}%"
    answer = {
        "H1": f"hang rate at least {p1} per wave (H1; wrong at most {100 * test.alpha:g}% of the time if it is {p0})",
        "H0": f"hang rate at most {p0} per wave (H0; wrong at most {100 * test.beta:g}% of the time if it is {p1})",
        None: f"undecided after {used} waves: run more (or widen p0..p1)",
    }[decision]
    return _result(f"hang rate per wave <= {p0} (H0) or >= {p1} (H1)", decision, answer, used, events, test)


def sequential_pairs(
    a: Sequence[bool],
    b: Sequence[bool],
    ratio: float,
    test_alpha: float,
    test_beta: float,
    names: tuple[str, str],
) -> SequentialResult:
    """The SPRT on two runs' waves paired in order. Only discordant pairs (one hung, the other
    not) carry information about which hangs more; given one, A is the hung one with probability
    1/2 if the rates are equal (H0) and ratio/(1 + ratio) if A's odds of hanging are `ratio`
    times B's (H1). One-sided: it asks whether A hangs more than B."""
    test = stats.Sprt(0.5, ratio / (1 + ratio), test_alpha, test_beta)
    where = [i for i, (x, y) in enumerate(zip(a, b, strict=False), start=1) if x != y]
    discordant = [a[i - 1] for i in where]
    decision, used = test.first_decision(discordant)
    events = sum(discordant[:used])
    pairs_used = where[used - 1] if decision is not None else used  # the pair that decided
    an, bn = names
    answer = {
        "H1": f"{an} hangs more often than {bn} (odds ratio >= {ratio:g}; wrong at most {100 * test_alpha:g}% of the "
        f"time if they are equal), decided at wave pair {pairs_used}",
        "H0": f"{an} does not hang more often than {bn} (wrong at most {100 * test_beta:g}% of the time if its odds are "
        f"{ratio:g}x), decided at wave pair {pairs_used}",
        None: f"undecided after {min(len(a), len(b))} wave pairs ({len(discordant)} discordant): run more",
    }[decision]
    return _result(
        f"{an} vs {bn}: equal hang rates (H0) or {an}'s odds {ratio:g}x {bn}'s (H1), on discordant wave pairs",
        decision,
        answer,
        used,
        events,
        test,
    )


def _result(
    question: str, decision: str | None, answer: str, used: int, events: int, test: stats.Sprt
) -> SequentialResult:
    return SequentialResult(
        question=question,
        decision=decision,
        answer=answer,
        trials=used,
        events=events,
        llr=test.llr(events, used),
        lower=test.lower,
        upper=test.upper,
        alpha=test.alpha,
        beta=test.beta,
        expected=test.expected_trials(),
        fixed=test.fixed_trials(),
    )
