# interpreter: blind
# shape: ProcessPoolExecutor over spawn; each task builds a polars frame, group-bys it, returns a small result;
# the launcher waits in as_completed and writes a parquet per round
import concurrent.futures as cf
import multiprocessing as mp
import os
import sys
import tempfile
import time

import numpy as np
import polars as pl


def task(seed: int) -> dict:
    rng = np.random.default_rng(seed)
    n = 400_000
    df = pl.DataFrame({"k": rng.integers(0, 1000, n), "v": rng.standard_normal(n), "w": rng.random(n)})
    out = df.group_by("k").agg(pl.col("v").mean(), pl.col("w").sum(), pl.len()).sort("k")
    if seed % 3 == 0:
        time.sleep(3.0)  # waiting on a remote object store
    return {"seed": seed, "rows": out.height, "vsum": float(out["v"].sum())}


def main() -> int:
    print("ready", flush=True)
    out = tempfile.mkdtemp(prefix="bh-ppe-")
    deadline = time.monotonic() + 35
    with cf.ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context("spawn")) as ex:
        rnd = 0
        while time.monotonic() < deadline:
            futs = [ex.submit(task, rnd * 6 + i) for i in range(6)]
            rows = [f.result() for f in cf.as_completed(futs, timeout=120)]
            pl.DataFrame(rows).write_parquet(os.path.join(out, f"round{rnd}.parquet"))
            rnd += 1
    print(f"done {rnd} rounds", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
