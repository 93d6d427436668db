import multiprocessing as mp
import os
import tempfile
import time

import pyarrow as pa
import pyarrow.compute as pc
from deltalake import DeltaTable, write_deltalake

TABLE = os.path.join(tempfile.mkdtemp(prefix="delta-"), "events")


def count_rows(_: object) -> None:
    dt = DeltaTable(TABLE)                                  # the worker opens the table again
    print(mp.current_process().name, "rows:", dt.to_pyarrow_table().num_rows, flush=True)


def other_work(seconds: float) -> None:
    t = pa.table({"x": list(range(1000))})
    time.sleep(seconds)                                     # stands for 16 s of arrow-only work
    print(mp.current_process().name, "summed", pc.sum(t["x"]).as_py(), flush=True)


def run(worker, arg) -> None:
    write_deltalake(TABLE, pa.table({"id": list(range(500)), "v": [i * 0.5 for i in range(500)]}))
    print("parent rows:", DeltaTable(TABLE).to_pyarrow_table().num_rows, flush=True)   # starts the runtime
    p = mp.get_context("fork").Process(target=worker, args=(arg,), name="shard-worker")
    p.start()
    print("ready", flush=True)
    p.join()
    print("worker exit code", p.exitcode, flush=True)
