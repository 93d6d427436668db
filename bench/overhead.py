"""Harness overhead: native-loader batches/s under `gvlstress run` vs a bare ProcessPoolExecutor loop.

Both sides spawn N workers that wait for each other (as gvlstress workers do), then iterate the
same loader for the same time; throughput is summed per-worker batches / iterating seconds. Repetitions alternate (bare, harness, bare, ...) so drift
on the machine hits both; the result is the median ratio. Goal: overhead under 3%.

    python bench/overhead.py --workers 5 --rayon 16 --duration 10 --reps 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bare_worker import init, iterate
from gvlstress import api
from gvlstress.scenario import Scenario


def bare(workers: int, rayon: int, duration: float) -> float:
    ctx = get_context("spawn")
    with ProcessPoolExecutor(
        workers, mp_context=ctx, initializer=init, initargs=(ctx.Barrier(workers),)
    ) as ex:
        results = list(ex.map(iterate, [rayon] * workers, range(workers), [duration] * workers))
    return sum(n / s for n, s in results)


def harness(workers: int, rayon: int, duration: float, report_dir: str) -> float:
    sc = Scenario(
        name="bench",
        workers=workers,
        rayon=rayon,
        waves=1,
        duration=duration,
        timeout=duration * 5 + 60,
        report_dir=report_dir,
    )
    result = api.run(sc)
    wave = result.waves[0]
    assert wave.verdict.value == "ok", wave.verdict
    return sum(w.iterations / w.iter_s for w in wave.workers if w.iter_s)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=5)
    ap.add_argument("--rayon", type=int, default=16)
    ap.add_argument("--duration", type=float, default=10.0)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.reps):
            b = bare(args.workers, args.rayon, args.duration)
            h = harness(args.workers, args.rayon, args.duration, tmp)
            ratios.append(h / b)
            print(
                f"rep {rep + 1}: bare {b:8.1f} batches/s   gvlstress {h:8.1f} batches/s   ratio {h / b:.3f}"
            )
    med = statistics.median(ratios)
    print(
        f"median throughput ratio gvlstress/bare = {med:.3f}  (overhead {100 * (1 - med):+.1f}%, goal < 3%)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
