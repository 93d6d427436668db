"""Hang rate of the lock_order race by rayon threads x workers: the contention yardstick.

lock_order takes two locks in opposite orders with no injected delay (window_us = 0), so a
wave hangs only when a thread is preempted inside a tiny critical window. The rate should rise
with oversubscription; this table is the yardstick for how well a configuration reproduces a
race. The baseline measured in the same run is the least oversubscribed cell (1 worker x 2
threads), and each cell is printed as a ratio against it.

    python bench/lock_order_rates.py --waves 10 --iterations 200
"""

from __future__ import annotations

import argparse
import sys
import tempfile

from gvlstress import api
from gvlstress.campaign.stats import rate
from gvlstress.scenario import Scenario


def cell(workers: int, rayon: int, waves: int, iterations: int, report_dir: str) -> tuple[int, int, float]:
    sc = Scenario(
        name=f"lock-order-{workers}x{rayon}",
        workers=workers,
        rayon=rayon,
        waves=waves,
        iterations=iterations,
        fault="lock_order",
        fault_rate=1.0,
        timeout=90,
        report_dir=report_dir,
    )
    result = api.run(sc)
    hung = sum(1 for w in result.waves if w.verdict.is_hang)
    batches = sum(w.iterations for wave in result.waves for w in wave.workers)
    return hung, len(result.waves), batches


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--waves", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--rayon", type=int, nargs="+", default=[2, 4, 8, 16])
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 5])
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for workers in args.workers:
            for rayon in args.rayon:
                hung, waves, batches = cell(workers, rayon, args.waves, args.iterations, tmp)
                rows.append((workers, rayon, hung, waves, batches))
                print(
                    f"{workers} worker(s) x {rayon:2d} threads: {rate(hung, waves)}  ({batches} batches)",
                    flush=True,
                )
    # Per-wave rates saturate once a hang is likely within a wave; hangs per 1000 batches
    # (a hung wave stops at its first hang) keep separating the configurations.
    print(
        "\n| workers | rayon threads | hung waves (95% CI) | batches run | hangs per 1000 batches | vs 1x2 |"
    )
    print("|---|---|---|---|---|---|")
    base_hazard = next(
        (h / b for wk, r, h, w, b in rows if (wk, r) == (min(args.workers), min(args.rayon)) and b), 0.0
    )
    for workers, rayon, hung, waves, batches in rows:
        hazard = hung / batches if batches else 0.0
        ratio = f"{hazard / base_hazard:.0f}x" if base_hazard else "-"
        print(f"| {workers} | {rayon} | {rate(hung, waves)} | {batches} | {1000 * hazard:.1f} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
