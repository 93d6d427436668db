"""Runs that scale: a wave's cost must not grow with the waves before it, nothing may leak.

Two runs in one process, timed from run.json's per-wave harness facts:
- N hung waves (5 x 16, lock held across a parallel region): time from one wave's files being
  done to the next's, against the first wave's (goal: flat, <= 1.2x); the run directory's size
  and run.json's size per hung wave (goal <= 500 kB); the harness's peak RSS (goal <= 150 MB);
- M healthy waves (1 worker, 1 batch): the harness's open fds, threads and maps after wave 10
  and after wave M (goal: equal).

    python bench/long_run.py --hung 20 --healthy 500
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import tempfile
from pathlib import Path

from gvlstress import api
from gvlstress.scenario import Scenario


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hung", type=int, default=20)
    ap.add_argument("--healthy", type=int, default=500)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.hung:
            sc = Scenario(
                name="hung",
                workers=5,
                rayon=16,
                waves=args.hung,
                iterations=100,
                fault="lock_across_par_iter",
                timeout=60,
                report_dir=tmp,
            )
            run = api.run(sc)
            waves = run.waves
            at = [w.harness["at_ms"] / 1000 for w in waves]
            per = [at[0]] + [b - a for a, b in itertools.pairwise(at)]
            run_dir = Path(run.run_dir)
            hung = sum(1 for w in waves if w.verdict.is_hang)
            print(f"{len(waves)} waves, {hung} hung; seconds per wave (files done to files done):")
            print("  " + " ".join(f"{p:.1f}" for p in per))
            print(
                f"  last 5 / first wave: {statistics.mean(per[-5:]) / per[0]:.2f}x; "
                f"median / first: {statistics.median(per) / per[0]:.2f}x (goal: flat, <= 1.2x)"
            )
            rj = (run_dir / "run.json").stat().st_size
            print(
                f"  run.json {rj / 1024:.0f} kB ({rj / 1024 / max(hung, 1):.0f} kB per hung wave; goal <= 500 kB), "
                f"run dir {size(run_dir) / 1e6:.1f} MB ({size(run_dir) / 1e6 / max(hung, 1):.2f} MB per hung wave), "
                f"workers/ {size(run_dir / 'workers') / 1e6:.1f} MB"
            )
            print(f"  harness peak RSS {waves[-1].harness['max_rss_kb'] / 1024:.0f} MB (goal <= 150 MB)")
        if args.healthy:
            sc = Scenario(name="healthy", workers=1, waves=args.healthy, iterations=1, report_dir=tmp)
            run = api.run(sc)
            h = [w.harness for w in run.waves]
            k = min(9, len(h) - 1)
            for key in ("fds", "threads", "maps"):
                print(f"healthy: {key} after wave {k + 1}: {h[k][key]}, after wave {len(h)}: {h[-1][key]}")
            print(f"healthy: peak RSS {h[-1]['max_rss_kb'] / 1024:.0f} MB; {json.dumps(h[-1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
