"""Crash rate of spawned genvarloader workers on a cold numba cache, warm-up off vs on.

Each trial is one launch from an empty NUMBA_CACHE_DIR of its own: 5 spawned workers import
genvarloader (seqpro compiles its numba functions into that cache) and load a few batches.
Off: the workers fill the cold cache together (the race). On: gvlstress's warm-up fills it in
one process first. Trials alternate (off, on, off, on, ...) so both arms see the same machine;
the baseline is the warm-up-off arm of the same run.

    python bench/cold_cache.py --trials 10
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import tempfile
import time

from gvlstress import api
from gvlstress.campaign.stats import fisher_exact, rate
from gvlstress.model import Verdict
from gvlstress.scenario import Scenario


def trial(warm: bool, workers: int, iterations: int, report_dir: str) -> tuple[bool, float]:
    """One launch from an empty cache: (crashed, seconds)."""
    sc = Scenario(
        name=f"cold-cache-{'warm' if warm else 'nowarm'}",
        target="genvarloader",
        workers=workers,
        waves=1,
        iterations=iterations,
        timeout=300,
        startup_grace=240,
        warm_up=warm,
        report_dir=report_dir,
    )
    with tempfile.TemporaryDirectory(prefix="bench-numba-") as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache
        started = time.monotonic()
        result = api.run(dataclasses.replace(sc))
        elapsed = time.monotonic() - started
    return result.summary.verdict is Verdict.CRASH, elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=10, help="trials per arm")
    ap.add_argument("--workers", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=5)
    args = ap.parse_args()
    report_dir = tempfile.mkdtemp(prefix="bench-cold-cache-")
    crashes = {False: 0, True: 0}
    seconds = {False: 0.0, True: 0.0}
    for i in range(args.trials):
        for warm in (False, True):
            crashed, s = trial(warm, args.workers, args.iterations, report_dir)
            crashes[warm] += crashed
            seconds[warm] += s
            print(
                f"trial {i + 1} warm-up {'on ' if warm else 'off'}: {'CRASH' if crashed else 'ok'} in {s:.0f}s"
            )
    n = args.trials
    off, on = crashes[False], crashes[True]
    print(f"\nwarm-up off (baseline): {rate(off, n)} crashed launches, {seconds[False] / n:.0f}s each")
    print(f"warm-up on:             {rate(on, n)} crashed launches, {seconds[True] / n:.0f}s each")
    print(f"ratio on/off: {on}/{off}; Fisher exact p = {fisher_exact(off, n - off, on, n - on):.3g}")
    print(f"reports under {report_dir}")


if __name__ == "__main__":
    main()
