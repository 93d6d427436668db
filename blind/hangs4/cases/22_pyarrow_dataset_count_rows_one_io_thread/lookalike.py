# Look-alike: pyarrow 11.0.0 counting the same dataset through a slow store (an fsspec filesystem whose
# first open of the file takes 16 s) with 2 IO threads: the caller waits on Arrow's future while an IO
# thread waits on the store, then the rows are counted. CPython 3.11.7 (numpy 1.26.4, fsspec 2024.6.1).
import os
import time

import numpy as np
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
from fsspec.implementations.local import LocalFileSystem
from pyarrow.fs import FSSpecHandler, PyFileSystem

pa.set_io_thread_count(1)                      # the container has 1 CPU
path = os.path.abspath("events.parquet")
pq.write_table(pa.table({"user": np.arange(200_000), "score": np.linspace(0, 1, 200_000)}), path,
               row_group_size=20_000)


class SlowStorage(LocalFileSystem):
    """A network-mounted store: once armed, the next open of the data file takes 16 s."""
    slow = False

    def _open(self, *args, **kwargs):
        if SlowStorage.slow and args[0].endswith(".parquet"):
            SlowStorage.slow = False
            time.sleep(16)
        return super()._open(*args, **kwargs)


pa.set_io_thread_count(2)                      # (the look-alike needs no nested wait on a single thread)
dataset = pads.dataset(path, format="parquet", filesystem=PyFileSystem(FSSpecHandler(SlowStorage())))
SlowStorage.slow = True                        # the counting reads go to the slow store
print("ready", flush=True)
print("rows", dataset.count_rows(use_threads=False))
