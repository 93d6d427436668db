"""What keeping a hang costs: gvlstress's own core writer beside gdb's gcore, on one hung worker.

A native-fixture worker deadlocked with 16 rayon threads (`lock_across_par_iter`). For each
writer, N cores: how long the worker was held stopped, the whole time (with compression), the
memory saved and the file on disk; then `inspect --core` on one of ours beside a live `inspect`
of the same worker (the offline verdict must be the live one). Printed as ratios against gcore,
measured in the same run: no absolute time is asserted anywhere.

    python bench/core_cost.py --reps 3
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gvlstress import api
from gvlstress.probes import corewriter, procfs

WORKER = """
import os
os.environ["RAYON_NUM_THREADS"] = "16"
import gvlstress_native as gn
gn.Loader(seed=1, fault="lock_across_par_iter", fault_rate=1.0).next_batch()
"""


def hung_worker() -> subprocess.Popen[bytes]:
    worker = subprocess.Popen([sys.executable, "-c", WORKER], start_new_session=True)
    end = time.monotonic() + 60
    while time.monotonic() < end:  # a /proc poll: every thread parked on a futex
        s = procfs.sample(worker.pid)
        if s is not None and len(s.threads) >= 17 and all(t.futex_addr for t in s.threads):
            return worker
        time.sleep(0.05)
    worker.kill()
    raise SystemExit("the fixture worker did not deadlock within 60 s")


def keep(pid: int, writer: str, reps: int, out: Path) -> dict[str, float]:
    os.environ[corewriter.WRITER_VAR] = writer
    runs = [corewriter.write(pid, out / f"{writer}-{i}.core.gz") for i in range(reps)]
    bad = [r.error for r in runs if not r.ok]
    if bad:
        raise SystemExit(f"{writer}: {bad[0]}")
    return {
        "held_s": statistics.median(r.seconds for r in runs),
        "total_s": statistics.median(r.total_s for r in runs),
        "saved_mb": runs[0].saved_bytes / 2**20,
        "file_mb": runs[0].file_bytes / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="gvlstress-bench-core-"))
    worker = hung_worker()
    try:
        rows = {"gvlstress": keep(worker.pid, "gvlstress", args.reps, out)}
        if shutil.which("gcore"):
            rows["gcore"] = keep(worker.pid, "gcore", args.reps, out)
        t0 = time.monotonic()
        live = api.inspect(worker.pid, report_dir=out / "live")
        live_s = time.monotonic() - t0
        t0 = time.monotonic()
        offline = api.inspect_core(out / "gvlstress-0.core.gz", report_dir=out / "offline")
        offline_s = time.monotonic() - t0
    finally:
        worker.kill()
        worker.wait(30)
        shutil.rmtree(out, ignore_errors=True)
    print(f"hung fixture worker, 17 threads; median of {args.reps}")
    print(f"{'writer':10} {'held s':>8} {'total s':>8} {'saved MB':>9} {'file MB':>8}")
    for name, r in rows.items():
        print(f"{name:10} {r['held_s']:8.2f} {r['total_s']:8.2f} {r['saved_mb']:9.1f} {r['file_mb']:8.1f}")
    if "gcore" in rows:
        own, gdb = rows["gvlstress"], rows["gcore"]
        print(
            f"ratios gvlstress/gcore: held {own['held_s'] / gdb['held_s']:.2f}, total {own['total_s'] / gdb['total_s']:.2f}, "
            f"file {own['file_mb'] / gdb['file_mb']:.2f}, memory saved {own['saved_mb'] / gdb['saved_mb']:.3f}"
        )
    a, b = live.processes[0].diagnosis, offline.processes[0].diagnosis
    print(f"live inspect {live_s:.1f}s: {a.verdict.value} / {a.pattern}")
    print(
        f"offline inspect --core {offline_s:.1f}s: {b.verdict.value} / {b.pattern} (ratio {offline_s / live_s:.2f})"
    )


if __name__ == "__main__":
    main()
