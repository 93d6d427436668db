# apache/arrow#37487 ("[Python] FileFormat::GetReaderAsync hangs when ARROW_IO_THREADS is set to 1"): with
# an IO thread pool of one thread, ParquetFileFormat::GetReader schedules a nested read on the IO pool
# from a task already running on its only thread and waits for it (FutureImpl::Wait), while the caller
# waits for the outer task. Here a job in a small container limits Arrow's IO threads to 1 and counts
# the rows of a parquet dataset. pyarrow 11.0.0 (numpy 1.26.4) on CPython 3.11.7 (fixed in 14.0).
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
