"""Detection latency: from the moment the fixture hangs to report.md on disk.

N workers x R rayon threads run the native fixture with lock_across_par_iter; the fixture
stamps the wall-clock moment a batch arms the fault (``-o fault_log``). Latency is report.md's
mtime minus the first stamp. The baseline measured in the same run is the stall window (the
earliest moment a quiet heartbeat can be noticed); the goal is latency <= stall window + 2 s.

    python bench/detect_latency.py --workers 5 --rayon 16 --reps 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from gvlstress import api
from gvlstress.scenario import Scenario


def one(
    workers: int, rayon: int, rate: float, stall_floor: float, tmp: Path, rep: int
) -> tuple[float, float, float]:
    log = tmp / f"faults-{rep}.log"
    sc = Scenario(
        name=f"latency-{rep}",
        workers=workers,
        rayon=rayon,
        waves=1,
        iterations=100_000,
        fault="lock_across_par_iter",
        fault_rate=rate,
        timeout=120,
        stall_floor=stall_floor,
        seed=rep,
        report_dir=str(tmp),
        options={"fault_log": str(log)},
    )
    result = api.run(sc)
    wave = result.waves[0]
    assert wave.verdict.value == "deadlock", wave.verdict
    onset = min(float(line.split()[1]) for line in log.read_text().splitlines())
    report = Path(result.run_dir) / "report.md"
    latency = report.stat().st_mtime - onset
    batch = max((w.batch_s_max or 0.0) for w in wave.workers)
    stall = max(stall_floor, 10 * batch)  # the supervisor's adaptive threshold at that moment
    return latency, stall, wave.detect_s or float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=5)
    ap.add_argument("--rayon", type=int, default=16)
    ap.add_argument("--rate", type=float, default=0.05, help="fault probability per batch")
    ap.add_argument("--stall-floor", type=float, default=2.0)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.reps):
            latency, stall, detect = one(
                args.workers, args.rayon, args.rate, args.stall_floor, Path(tmp), rep
            )
            rows.append((latency, stall))
            print(
                f"rep {rep + 1}: hang -> report.md {latency:5.2f}s   stall window {stall:4.2f}s   "
                f"beyond the stall {latency - stall:5.2f}s   (wave start -> verdict {detect:.2f}s)"
            )
    beyond = statistics.median(lat - st for lat, st in rows)
    ratio = statistics.median(lat / st for lat, st in rows)
    print(f"median: {ratio:.2f}x the stall window, {beyond:.2f}s beyond it (goal: <= 2 s beyond)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
