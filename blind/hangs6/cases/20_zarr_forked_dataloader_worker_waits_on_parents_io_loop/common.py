import multiprocessing as mp
import tempfile
import time

import numpy as np
import zarr


def load_batch(path: str, reset_loop: bool, compute_seconds: float) -> None:
    if reset_loop:
        # the workaround (what zarr 3.0.3 does after fork): forget the parent's IO loop and thread
        from zarr.core import sync
        sync.loop[0] = None
        sync.iothread[0] = None
    arr = zarr.open_array(path, mode="r")
    for i in range(10):
        batch = arr[i * 10:(i + 1) * 10]
        time.sleep(compute_seconds / 10)            # the training step
    print("worker: last batch sum", float(batch.sum()), flush=True)


def run(reset_loop: bool = False, compute_seconds: float = 0.0) -> None:
    path = tempfile.mkdtemp(prefix="zarr-") + "/x.zarr"
    arr = zarr.create_array(path, shape=(100, 64), chunks=(10, 64), dtype="f4")
    arr[:] = np.arange(6400, dtype="f4").reshape(100, 64)   # the parent writes/reads: starts zarr's IO thread
    print("parent: mean", float(arr[:].mean()), flush=True)
    ctx = mp.get_context("fork")                   # torch DataLoader workers are forked on Linux
    w = ctx.Process(target=load_batch, args=(path, reset_loop, compute_seconds), name="dataloader-worker-0")
    w.start()
    print("ready", flush=True)
    w.join()
    print("worker exit code", w.exitcode, flush=True)
