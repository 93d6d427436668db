"""genvarloader under the amplifiers, and the #265 fix split in two.

The #263 configuration (5 spawned workers, 16 rayon threads each) for 0.36.0 (in a second
environment, `--python`) and 0.43.1 (16 threads forced), each as is and under a CPU quota at 95%
of this machine's cores (as 15.3 of 16 on the reporter's host) plus scheduling chaos; then the
fix split: 0.43.1 with 16 threads forced (GIL released, cap defeated) against 0.36.0 with its
pool capped to the CPU budget (cap applied, GIL held). Cells alternate within each repetition.
Printed per cell: hung waves with the 95% bound, waves per hour, the pool size each worker
really had and what the version's cap resolved to; honest either way, hang or not.

    python bench/gvl_amplify.py --python ~/.cache/gvlstress/venvs/gvl-0.36.0/bin/python --reps 2 --waves 2
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from collections import Counter
from typing import Any

from gvlstress import api
from gvlstress.campaign import stats
from gvlstress.scenario_sources import resolve


def cells(py036: str, quota: float) -> dict[str, tuple[str, dict[str, Any]]]:
    amp = {"cpu_quota": quota, "chaos": 1}
    return {
        "0.36.0 #263 (inherited 16)": ("gvl-issue-263", {"python": py036}),
        "0.36.0 #263 + quota + chaos": ("gvl-issue-263", {"python": py036, **amp}),
        "0.43.1 forced 16": ("gvl-fixed-16", {}),
        "0.43.1 forced 16 + quota + chaos": ("gvl-fixed-16", amp),
        "split: 0.43.1 forced 16 (GIL released, cap defeated) + quota": (
            "gvl-fixed-16",
            {"cpu_quota": quota},
        ),
        "split: 0.36.0 capped to budget (GIL held) + quota": (
            "gvl-issue-263",
            {"python": py036, "inherit_rayon": None, "rayon": math.ceil(quota), "cpu_quota": quota},
        ),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", required=True, help="interpreter with genvarloader 0.36.0")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--waves", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=120)
    args = ap.parse_args()
    quota = round(0.95 * len(os.sched_getaffinity(0)), 2)
    plan = cells(args.python, quota)
    tally: dict[str, dict[str, Any]] = {
        k: {"hung": 0, "waves": 0, "wall": 0.0, "pools": Counter()} for k in plan
    }
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.reps):
            for label, (name, overrides) in plan.items():
                sc = resolve(
                    name,
                    {
                        "waves": args.waves,
                        "iterations": args.iterations,
                        "report_dir": tmp,
                        "seed": rep,
                        **overrides,
                    },
                )
                result = api.run(sc)
                t = tally[label]
                t["hung"] += sum(1 for w in result.waves if w.verdict.is_hang)
                t["waves"] += len(result.waves)
                t["wall"] += sum(w.wall_s for w in result.waves)
                for wave in result.waves:
                    for w in wave.workers:
                        t["pools"][(w.rayon_threads, w.target_info.get("gvl_resolved_threads"))] += 1
                print(f"rep {rep + 1} {label}: {[w.verdict.value for w in result.waves]}", flush=True)
    print(
        f"\ngenvarloader, 5 workers, quota {quota:g} of {len(os.sched_getaffinity(0))} cores where marked, {args.iterations} batches per worker"
    )
    print("| cell | hung waves (95% CI) | waves/hour | pool per worker (resolved cap): workers |")
    print("|---|---|---|---|")
    for label, t in tally.items():
        r = stats.rate(t["hung"], t["waves"])
        pools = ", ".join(f"{p} ({c}): {n}" for (p, c), n in sorted(t["pools"].items(), key=str))
        per_hour = 3600 * t["waves"] / t["wall"] if t["wall"] else float("nan")
        print(f"| {label} | {r} | {per_hour:.0f} | {pools} |")


if __name__ == "__main__":
    main()
