"""What `gvlstress inspect` costs, parked and moving (issue 45: the adaptive look).

A parked lock cycle (two Python threads, each holding the lock the other wants; every thread
asleep, no CPU): its verdict comes from the first samples and the stacks, goal <= 1.0 s end to
end, start-up included. Then three states of a 17-thread worker (the native fixture, 16 rayon
threads): its pool idle, busy with healthy batches (moving: the window is spent), and the GIL
spin hang (`gil_spin`); goal: inspect under 3 s at its default window. Each `gvlstress inspect
PID` runs N times in a subprocess (its whole wall time, from start-up to report on disk), beside
baselines measured in the same run: the window itself, `gvlstress --version` (start-up), one
`py-spy dump` and one `pystack remote --native-all` of the process (one stack look). Bytecode is
cached, as in an installed package (PYTHONDONTWRITEBYTECODE dropped).

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

from gvlstress.look.windows import LOOK_WINDOW_S

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
CYCLE = """
import threading
a, b = threading.Lock(), threading.Lock()
both = threading.Barrier(3)
def take(first, second):
    with first:
        both.wait()
        with second:
            pass
for pair in ((a, b), (b, a)):
    threading.Thread(target=take, args=pair, daemon=True).start()
both.wait()
print("ready", flush=True)
threading.Event().wait()
"""
STATES = ("cycle", "idle", "busy", "gil_spin")
GOALS = {"cycle": 1.0, "idle": 3.0, "busy": 3.0, "gil_spin": 3.0}
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str], timeout: float = 120) -> tuple[float, int]:
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=ENV)
    return time.monotonic() - started, done.returncode


def bench_state(state: str, reps: int, out: Path) -> dict[str, float]:
    code, want = (CYCLE, 3) if state == "cycle" else (WORKER, 17)
    worker = subprocess.Popen(
        [sys.executable, "-c", code, state], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert worker.stdout is not None
        assert worker.stdout.readline().strip() == "ready"
        threads, deadline = 0, time.monotonic() + 30
        while threads < want and time.monotonic() < deadline:  # the pool starts with the first batch
            threads = len(os.listdir(f"/proc/{worker.pid}/task"))
            time.sleep(0.05)  # a bounded /proc poll
        gvl = [sys.executable, "-m", "gvlstress"]
        timed([*gvl, "--version"])  # the bytecode cached, as an installed package has it
        looks = [
            timed(
                [
                    *gvl,
                    "inspect",
                    str(worker.pid),
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
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gvlstress-inspect-cost-") as tmp:
        rows = {state: bench_state(state, args.reps, Path(tmp)) for state in STATES}
    print(
        f"gvlstress inspect PID, {args.reps} reps, default window {LOOK_WINDOW_S:g}s, {os.cpu_count()} CPUs"
    )
    print(
        "| process | threads | inspect median (worst) | goal | exit | inspect / py-spy dump | start-up "
        "| py-spy dump | pystack --native-all |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for state, r in rows.items():
        goal = GOALS[state]
        mark = "ok" if r["inspect"] <= goal else "over"
        print(
            f"| {state} | {r['threads']:.0f} | {r['inspect']:.2f} s ({r['worst']:.2f} s) | <= {goal:g} s: {mark} "
            f"| {r['exit']:.0f} | {r['inspect'] / r['pyspy']:.0f}x | {r['startup']:.2f} s | {r['pyspy']:.2f} s "
            f"| {r['pystack']:.2f} s |"
        )


if __name__ == "__main__":
    main()
