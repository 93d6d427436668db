"""Shape: dask.bag on dask's local multiprocessing scheduler (2 processes): a map/filter/fold over
200k records computed over and over; the launcher waits on the worker processes."""

from __future__ import annotations

import _field
import dask
import dask.bag as db


def score(i: int) -> int:
    return sum(j * j for j in range(i % 300))


def main() -> None:
    bag = db.from_sequence(range(200_000), npartitions=8)
    with dask.config.set(scheduler="processes", num_workers=2):
        bag.map(score).sum().compute()
        _field.ready()
        while not _field.over():
            bag.map(score).filter(lambda v: v % 3 == 0).sum().compute()


if __name__ == "__main__":
    main()
