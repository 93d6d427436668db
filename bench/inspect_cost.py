"""What `gvlstress inspect` costs on a 17-thread worker (the native fixture, 16 rayon threads).

Three states of the same worker: its pool idle, its pool busy with healthy batches, and the GIL
spin hang (`gil_spin`). For each, `gvlstress inspect PID` runs N times in a subprocess (its
whole wall time, from start-up to report on disk), beside baselines measured in the same run:
the window itself (the look's floor), `gvlstress --version` (start-up and imports), and one
`py-spy dump` and one `pystack remote --native-all` of the worker (one stack look). The goal:
inspect under 3 s at its default window.

    python bench/inspect_cost.py --reps 5
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORKER = """
import os, sys, time
os.environ["RAYON_NUM_THREADS"] = "16"
import gvlstress_native as gn
state = sys.argv[1]
if state == "idle":
    gn.Loader(seed=1, batch_size=64).next_batch()
    print("ready", flush=True)
    time.sleep(3600)
elif state == "busy":
    loader = gn.Loader(seed=1, batch_size=512, region_len=65536)
    loader.next_batch()
    print("ready", flush=True)
    while True:
        loader.next_batch()
else:
    print("ready", flush=True)
    gn.Loader(seed=1, fault="gil_spin", fault_rate=1.0).next_batch()
"""
STATES = ("idle", "busy", "gil_spin")


def timed(argv: list[str], timeout: float = 120) -> tuple[float, int]:
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    return time.monotonic() - started, done.returncode


def bench_state(state: str, reps: int, window: float, out: Path) -> dict[str, float]:
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, state], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert worker.stdout is not None
        assert worker.stdout.readline().strip() == "ready"
        threads, deadline = 0, time.monotonic() + 30
        while threads < 17 and time.monotonic() < deadline:  # the pool starts with the first batch
            threads = len(os.listdir(f"/proc/{worker.pid}/task"))
            time.sleep(0.05)  # a bounded /proc poll
        gvl = [sys.executable, "-m", "gvlstress"]
        looks = [
            timed(
                [
                    *gvl,
                    "inspect",
                    str(worker.pid),
                    "--window",
                    str(window),
                    "--report-dir",
                    str(out / f"{state}-{i}"),
                ]
            )
            for i in range(reps)
        ]
        startup = statistics.median(timed([*gvl, "--version"])[0] for _ in range(reps))
        pyspy = statistics.median(
            timed([shutil.which("py-spy") or "py-spy", "dump", "--pid", str(worker.pid)])[0] for _ in range(3)
        )
        pystack = statistics.median(
            timed([shutil.which("pystack") or "pystack", "remote", str(worker.pid), "--native-all"])[0]
            for _ in range(3)
        )
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
    codes = sorted({code for _, code in looks})
    return {
        "threads": threads,
        "inspect": statistics.median(s for s, _ in looks),
        "worst": max(s for s, _ in looks),
        "startup": startup,
        "pyspy": pyspy,
        "pystack": pystack,
        "exit": float(codes[0]) if len(codes) == 1 else -1.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--window", type=float, default=2.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gvlstress-inspect-cost-") as tmp:
        rows = {state: bench_state(state, args.reps, args.window, Path(tmp)) for state in STATES}
    print(f"inspect on a 17-thread worker, {args.reps} reps, window {args.window:g}s, {os.cpu_count()} CPUs")
    print(
        "| worker | threads | inspect median (worst) | exit | inspect / window | start-up | py-spy dump | pystack --native-all |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for state, r in rows.items():
        print(
            f"| {state} | {r['threads']:.0f} | {r['inspect']:.2f} s ({r['worst']:.2f} s) | {r['exit']:.0f} | "
            f"{r['inspect'] / args.window:.2f}x | {r['startup']:.2f} s | {r['pyspy']:.2f} s | {r['pystack']:.2f} s |"
        )


if __name__ == "__main__":
    main()
