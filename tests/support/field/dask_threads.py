"""Shape: dask.array on dask's local threaded scheduler (4 threads): a chunked reduction and a
matmul computed over and over; the main thread waits on the scheduler's queue."""

from __future__ import annotations

import _field
import dask
import dask.array as da


def main() -> None:
    x = da.random.default_rng(12).standard_normal((2000, 2000), chunks=(250, 250))
    with dask.config.set(scheduler="threads", num_workers=4):
        assert float((x @ x.T).mean().compute()) != 0.0  # the scheduler's threads are up
        _field.ready()
        while not _field.over():
            ((x + 1) ** 2).sum(axis=0).std().compute()


if __name__ == "__main__":
    main()
