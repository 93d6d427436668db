# Control: the same program on pyarrow 14.0.2 (numpy 1.26.4), which has the fix of apache/arrow#37487
# (the nested read no longer waits on the IO pool's only thread); the rows are counted. CPython 3.11.7.
import os

import numpy as np
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq

pa.set_io_thread_count(1)                      # the container has 1 CPU
path = os.path.abspath("events.parquet")
pq.write_table(pa.table({"user": np.arange(200_000), "score": np.linspace(0, 1, 200_000)}), path,
               row_group_size=20_000)
dataset = pads.dataset(path, format="parquet")
print("ready", flush=True)
print("rows", dataset.count_rows(use_threads=False))
