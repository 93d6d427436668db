# interpreter: blind
# shape: a dask.distributed LocalCluster (2 worker processes with nannies, scheduler in-process): a dask.array
# reduction, then futures that wait on slow I/O, then a dataframe-ish groupby via dask.bag
import sys
import time

import dask.array as da
import dask.bag as db
from distributed import Client, LocalCluster


def slow_io(i: int) -> int:
    time.sleep(4.0 if i % 2 else 1.0)
    return i * i


def main() -> int:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        print("ready", flush=True)
        x = da.random.random((4000, 4000), chunks=(1000, 1000))
        print("mean", float((x @ x.T).mean().compute()), flush=True)
        futs = client.map(slow_io, range(10))
        print("io", sum(client.gather(futs)), flush=True)
        b = db.from_sequence(range(200_000), npartitions=8).map(lambda v: (v % 17, v)).foldby(0, lambda a, kv: a + kv[1], 0, lambda a, c: a + c, 0)
        print("bag", len(b.compute()), flush=True)
        time.sleep(6)  # the driver waits for the next upstream partition
        futs = client.map(slow_io, range(10, 16))
        print("io2", sum(client.gather(futs)), flush=True)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
