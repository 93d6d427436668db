"""Waves per hour: the harness's own cost per wave, and what forkserver + preload buys.

Three commands, each timed as a user runs it (interpreter start, imports, reports), run the same W waves of N workers x `--rayon` threads, k batches each, one after
another within each repetition (so drift on the machine hits all); a first repetition warms
caches and is not counted:

- bare: a spawn ProcessPoolExecutor per wave whose workers wait for each other, open the native
  loader and run k batches (no heartbeats, no probes, no reports);
- gvlstress spawn: `api.run` of the same waves (everything on: heartbeats, /proc, reports);
- gvlstress forkserver + preload: the same with workers forked from a server that imported the
  loader once.

Printed: seconds per wave (median over reps), waves per hour, and the ratios harness/bare (goal
<= 1.10) and spawn/forkserver-preload (goal >= 2). `--target genvarloader` compares spawn against
forkserver + preload on the real loader (no bare loop for it).

    python bench/waves_per_hour.py --workers 5 --rayon 16 --waves 10 --iterations 1 --reps 3
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


class Refused(Exception):
    """The harness refused the cell in one line (e.g. --preload of a target whose import starts threads)."""


def timed(argv: list[str]) -> float:
    """Wall seconds of one command, as a user would run it (interpreter start and all)."""
    started = time.monotonic()
    done = subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=1800, check=False
    )
    if done.returncode == 2:
        raise Refused(done.stderr.strip())
    if done.returncode != 0:
        raise RuntimeError(f"{argv[:6]}... exited {done.returncode}: {done.stderr.strip()[-300:]}")
    return time.monotonic() - started


def command(cell: str, args: argparse.Namespace, report_dir: str, waves: int) -> list[str]:
    """The command line that runs `waves` waves the `cell` way."""
    if cell == "bare":
        return [
            sys.executable,
            str(HERE / "_bare_worker.py"),
            *map(str, (waves, args.workers, args.rayon, args.iterations)),
        ]
    argv = [
        sys.executable,
        "-m",
        "gvlstress",
        "run",
        "--target",
        args.target,
        "--workers",
        str(args.workers),
        "--rayon",
        str(args.rayon),
        "--waves",
        str(waves),
        "--iterations",
        str(args.iterations),
        "--report-dir",
        report_dir,
    ]
    return argv + (["--start-method", "forkserver", "--preload"] if cell != "spawn" else [])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", default="native", choices=["native", "genvarloader"])
    ap.add_argument("--workers", type=int, default=5)
    ap.add_argument("--rayon", type=int, default=16)
    ap.add_argument("--waves", type=int, default=10, help="at least 2 (1-wave runs give the fixed cost)")
    ap.add_argument("--iterations", type=int, default=1)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    if args.waves < 2:
        ap.error("--waves must be at least 2")
    cells = (["bare"] if args.target == "native" else []) + ["spawn", "forkserver+preload"]
    per_wave: dict[str, list[float]] = {c: [] for c in cells}
    marginal: dict[str, list[float]] = {c: [] for c in cells}
    fixed: dict[str, list[float]] = {c: [] for c in cells}
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.reps + 1):
            for c in list(cells):
                try:
                    many = timed(command(c, args, tmp, args.waves))
                    one = timed(command(c, args, tmp, 1))
                except Refused as why:
                    print(f"{c}: refused by gvlstress: {why}")
                    cells.remove(c)
                    continue
                if rep == 0:  # warms the page cache (and numba's) for every cell alike
                    continue
                per_wave[c].append(many / args.waves)
                step = (many - one) / (args.waves - 1)
                marginal[c].append(step)
                fixed[c].append(one - step)
                print(
                    f"rep {rep} {c:>20}: {many:6.2f}s for {args.waves} waves, {one:5.2f}s for 1 "
                    f"(each further wave {step:.3f}s, fixed {one - step:.2f}s)"
                )
    print(
        f"\n{args.target}: {args.waves} waves x {args.workers} workers x rayon {args.rayon}, "
        f"{args.iterations} batch(es) each, median of {args.reps}"
    )
    med = {c: statistics.median(v) for c, v in per_wave.items() if v}
    step_med = {c: statistics.median(v) for c, v in marginal.items() if v}
    fixed_med = {c: statistics.median(v) for c, v in fixed.items() if v}
    for c in cells:
        print(
            f"  {c:>20}: {med[c]:.3f} s/wave over {args.waves} waves ({3600 / med[c]:6.0f} waves/hour); "
            f"each further wave {step_med[c]:.3f} s, fixed {fixed_med[c]:.2f} s"
        )
    if "spawn" not in med or "forkserver+preload" not in med:
        return 0
    if "bare" in med:
        print(
            f"  harness cost: gvlstress spawn / bare = {med['spawn'] / med['bare']:.2f}x over {args.waves} waves, "
            f"{step_med['spawn'] / step_med['bare']:.2f}x per further wave (goal <= 1.10x)"
        )
        print(
            f"  forkserver+preload / bare spawn = {med['forkserver+preload'] / med['bare']:.2f}x over {args.waves} waves"
        )
    print(
        f"  forkserver+preload speed-up: spawn / forkserver+preload = "
        f"{med['spawn'] / med['forkserver+preload']:.2f}x (goal >= 2x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
