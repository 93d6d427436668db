"""Shape: the built-in rayon loader (gvlstress_native) in 2 spawned Pool workers, 8 rayon threads
each (16 on 2 cores), each worker pulling batches; the launcher waits in map()."""

from __future__ import annotations

import multiprocessing as mp
import os
import time

import _field


def task(seconds: float) -> int:
    os.environ["RAYON_NUM_THREADS"] = "8"
    import gvlstress_native

    until = time.time() + seconds
    loader = gvlstress_native.Loader(seed=os.getpid(), samples=8, region_len=8192, batch_size=64)
    n = 0
    while time.time() < until:
        loader.next_batch()
        n += 1
    return n


def main() -> None:
    with mp.get_context("spawn").Pool(2) as pool:
        pending = pool.map_async(task, [_field.SECONDS + 1.0] * 2)
        workers = [p.pid for p in getattr(pool, "_pool", []) if p.pid]

        def started() -> bool:
            return all(len(os.listdir(f"/proc/{w}/task")) >= 9 for w in workers)

        _field.settle(started, "both workers' rayon pools", runs=2)
        _field.ready()
        assert all(n > 0 for n in pending.get(timeout=_field.MAX_S + 30))


if __name__ == "__main__":
    main()
