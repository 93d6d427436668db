# interpreter: blind
# shape: an ETL job: pyarrow writes parquet partitions, an "upstream" process delivers a file late;
# the job waits for it (threading.Event set by a watcher thread polling the path), then duckdb aggregates
import os
import subprocess
import sys
import tempfile
import threading
import time

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

UPSTREAM = r'''
import sys, time
time.sleep(float(sys.argv[2]))
open(sys.argv[1] + ".tmp", "w").write("ok\n")
import os; os.replace(sys.argv[1] + ".tmp", sys.argv[1])
'''


def main() -> int:
    print("ready", flush=True)
    d = tempfile.mkdtemp(prefix="bh-etl-")
    rng = np.random.default_rng(0)
    con = duckdb.connect()
    for rnd, delay in enumerate([8.0, 11.0, 8.0]):
        n = 1_500_000
        tbl = pa.table({"k": rng.integers(0, 5000, n), "v": rng.standard_normal(n), "rnd": np.full(n, rnd)})
        pq.write_table(tbl, os.path.join(d, f"part{rnd}.parquet"))
        flag = os.path.join(d, f"_SUCCESS{rnd}")
        up = subprocess.Popen([sys.executable, "-c", UPSTREAM, flag, str(delay)])
        ev = threading.Event()

        def watch() -> None:
            while not os.path.exists(flag):
                time.sleep(0.5)
            ev.set()

        threading.Thread(target=watch, daemon=True).start()
        if not ev.wait(timeout=60):
            return 3
        up.wait(timeout=30)
        r = con.execute(
            f"select rnd, count(*), avg(v), count(distinct k) from read_parquet('{d}/*.parquet') group by rnd order by rnd"
        ).fetchall()
        print(f"round {rnd}: {r[-1]}", flush=True)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
