"""Which amplifier makes the lock_order race happen most: hangs per CPU-minute against the baseline.

The race (`lock_order`, `window_us = 0`) hangs only when a thread is preempted inside a tiny
two-lock window. At a low-hazard configuration each lever runs the same waves; levers alternate
within each repetition (baseline, squeeze, quota, burners, chaos, ...) so all see the same
machine. Printed per lever: hung waves, batches, hangs per 1000 batches and per CPU-minute of the
workers with 95% intervals, and the ratio to the baseline measured in the same run (rr's own bar
for a chaos feature: 3x). `--false-alarms N` also runs the healthy and slow fixtures N waves under
every lever and counts hangs (the goal: none).

    python bench/amplify.py --workers 1 --rayon 2 --reps 3 --waves 3 --iterations 300
    python bench/amplify.py --race h5py --workers 5 --reps 3 --waves 3 --iterations 200
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
from typing import Any

from gvlstress import api
from gvlstress.campaign import stats
from gvlstress.campaign.shards import sequential_pairs
from gvlstress.model import SequentialResult
from gvlstress.scenario import Scenario
from gvlstress.system.cache import cache_root

LEVERS: dict[str, dict[str, Any]] = {
    "baseline": {},
    "squeeze 1": {"squeeze": 1},
    "cpu-quota 0.5": {"cpu_quota": 0.5},
    "burners 2": {"burners": 2},
    "chaos": {"chaos": 1},
    "gang 30": {"gang": 30},
    "chaos + gang 30": {"chaos": 1, "gang": 30},
    "delays": {"delays": 1},
    "switch 100us": {"switch_interval": 0.0001},
    "switch 100us + chaos": {"switch_interval": 0.0001, "chaos": 1},
    "squeeze 1 + chaos": {"squeeze": 1, "chaos": 2},
    "squeeze 1 + burners 2": {"squeeze": 1, "burners": 2},
}


def harness_cpu_s() -> float:
    """CPU-seconds of this process (the supervisor and its chaos/gang thread), not its children."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cell(
    lever: dict[str, Any], rep: int, args: argparse.Namespace, report_dir: str, **extra: Any
) -> tuple[list[bool], int, float, float]:
    settings: dict[str, Any] = {
        "name": "amplify",
        "workers": args.workers,
        "rayon": args.rayon,
        "waves": args.waves,
        "iterations": args.iterations,
        "fault": "lock_order",
        "fault_rate": 1.0,
        "timeout": 60.0,
        "seed": rep,
        "report_dir": report_dir,
        "options": {"window_us": 0},
    }
    if args.race:
        opts: dict[str, Any] = {"race": args.race}
        for kv in args.race_opt:
            key, _, value = kv.partition("=")
            opts[key] = float(value) if "." in value else int(value)
        settings.update({"target": "race", "fault": "none", "options": opts})
    settings.update(extra)
    settings.update({k: (v + rep if k in ("chaos", "delays") else v) for k, v in lever.items()})
    before = harness_cpu_s()
    result = api.run(Scenario(**settings))
    harness = harness_cpu_s() - before
    hung = [w.verdict.is_hang for w in result.waves]
    batches = sum(w.iterations for wave in result.waves for w in wave.workers)
    cpu_min = sum(w.cpu_s or 0.0 for wave in result.waves for w in wave.workers) / 60
    return hung, batches, cpu_min, harness


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rayon", type=int, default=2)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--waves", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--false-alarms", type=int, default=0, help="waves of healthy and slow per lever")
    ap.add_argument("--race", choices=("logly", "h5py"), help="a real race from PyPI instead of lock_order")
    ap.add_argument("--race-opt", action="append", default=[], metavar="KEY=VALUE", help="the race's options")
    ap.add_argument(
        "--sequential",
        type=float,
        metavar="RATIO",
        help="stop running a lever once the SPRT on its waves paired with the baseline's decides "
        "whether it hangs RATIO times as often (odds; alpha = beta = 0.05)",
    )
    ap.add_argument(
        "--levers", default=",".join(LEVERS), help=f"comma-separated subset of: {', '.join(LEVERS)}"
    )
    args = ap.parse_args()
    chosen = [x.strip() for x in args.levers.split(",") if x.strip()]
    unknown = [x for x in chosen if x not in LEVERS]
    if unknown or "baseline" not in chosen:
        ap.error(f"--levers: unknown {unknown} (the baseline is always needed)")
    levers = {k: LEVERS[k] for k in chosen}
    report_dir = tempfile.mkdtemp(prefix="bench-amplify-")
    # the delay layer starts from nothing learned (what it learns in this run, it keeps using);
    # the user's learned sites are set aside for the bench and put back after it
    learned, aside = cache_root() / "delays", cache_root() / f"delays.bench-{os.getpid()}"
    if learned.exists():
        learned.rename(aside)
    try:
        run_levers(args, levers, report_dir)
    finally:
        shutil.rmtree(learned, ignore_errors=True)
        if aside.exists():
            aside.rename(learned)
    print(f"reports under {report_dir}")


def run_levers(args: argparse.Namespace, levers: dict[str, dict[str, Any]], report_dir: str) -> None:
    """Every lever's cells, alternating within each repetition; the table; the false alarms."""
    totals: dict[str, list[float]] = {name: [0, 0.0, 0.0] for name in levers}
    """lever -> batches, worker CPU-minutes, harness CPU-seconds (hangs: `waves`)."""
    waves: dict[str, list[bool]] = {name: [] for name in levers}
    """lever -> each wave hung or not, in order (paired with the baseline's by the SPRT)."""
    decided: dict[str, SequentialResult] = {}
    for rep in range(args.reps):
        for name, lever in levers.items():
            if name in decided:
                continue
            hung, batches, cpu, harness = cell(lever, rep, args, report_dir)
            waves[name] += hung
            t = totals[name]
            t[0], t[1], t[2] = t[0] + batches, t[1] + cpu, t[2] + harness
            print(
                f"rep {rep + 1} {name}: {sum(hung)} hung, {batches} batches, {cpu:.2f} CPU-min, "
                f"harness {harness:.2f} CPU-s",
                flush=True,
            )
        if args.sequential:
            decided |= sequential(args.sequential, waves, decided)
            if len(decided) == len(levers) - 1:
                print(f"every lever decided after {rep + 1} repetition(s)", flush=True)
                break
    if args.reps:
        table(args, totals, waves)
        for name, res in decided.items():
            print(f"- {name}: {res.answer} ({res.trials} discordant pairs)")
    if args.false_alarms:
        false_alarms(args, levers, report_dir)


def sequential(
    ratio: float, waves: dict[str, list[bool]], decided: dict[str, SequentialResult]
) -> dict[str, SequentialResult]:
    """Levers the SPRT decides now (their waves paired in order with the baseline's)."""
    out = {}
    for name, hung in waves.items():
        if name == "baseline" or name in decided:
            continue
        res = sequential_pairs(hung, waves["baseline"], ratio, 0.05, 0.05, (name, "baseline"))
        if res.decision is not None:
            out[name] = res
    return out


def table(args: argparse.Namespace, totals: dict[str, list[float]], waves: dict[str, list[bool]]) -> None:
    """Each lever's hangs per 1000 batches and per CPU-minute, and its ratio to the baseline."""
    base_hung, base_cpu = sum(waves["baseline"]), totals["baseline"][1]
    what = f"race {args.race} {' '.join(args.race_opt)}" if args.race else "lock_order"
    print(
        f"\n{what}, {args.workers} x {args.rayon}, {args.reps} x {args.waves} waves of {args.iterations} batches per lever"
    )
    print(
        "| lever | hung waves | batches | hangs / 1000 batches (95% CI) | hangs / CPU-minute (95% CI) "
        "| vs baseline per CPU-minute (exact 95% CI) | harness CPU-s per wave |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, (tot_batches, tot_cpu, tot_harness) in totals.items():
        tot_hung, n_waves = sum(waves[name]), len(waves[name])
        r = stats.rate(tot_hung, max(int(tot_batches), 1))
        per, lo, hi = stats.poisson_rate(tot_hung, tot_cpu)
        x, xlo, xhi = stats.rate_ratio(tot_hung, tot_cpu, base_hung, base_cpu)
        ratio = "-" if x != x else f"{x:.1f}x ({xlo:.1f}-{xhi:.1f})"  # nan: no hang on either side
        print(
            f"| {name} | {tot_hung}/{n_waves} | {int(tot_batches)} | {1000 * r.p:.2f} ({1000 * r.low:.2f}-{1000 * r.high:.2f}) "
            f"| {per:.2f} ({lo:.2f}-{hi:.2f}) | {ratio} | {tot_harness / max(n_waves, 1):.2f} |"
        )


def false_alarms(args: argparse.Namespace, levers: dict[str, dict[str, Any]], report_dir: str) -> None:
    """Hung waves of the healthy and the slow fixture under each lever (the goal: none)."""
    print("\nfalse alarms (hung waves) under each lever, healthy / slow:")
    for name, lever in levers.items():
        counts = []
        for fault, extra in (
            ("none", {}),
            ("slow", {"options": {"slow_ms": 1200}, "stall_floor": 0.5, "iterations": 2}),
        ):
            settings = {"fault": fault, "fault_rate": 1.0, "waves": args.false_alarms, **extra}
            result = api.run(
                Scenario(
                    **{
                        "name": "amplify-negative",
                        "workers": 2,
                        "rayon": 4,
                        "iterations": 20,
                        "timeout": 60.0,
                        "report_dir": report_dir,
                        **settings,
                        **{k: v for k, v in lever.items()},
                    }
                )
            )
            counts.append(sum(1 for w in result.waves if w.verdict.is_hang))
        print(
            f"- {name}: {counts[0]}/{args.false_alarms} healthy, {counts[1]}/{args.false_alarms} slow",
            flush=True,
        )


if __name__ == "__main__":
    main()
