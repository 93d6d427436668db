"""Shape: multiprocessing.Pool(2) over spawn (the way to use polars with processes), each worker
running polars queries on its own frame; the launcher in imap()."""

from __future__ import annotations

import multiprocessing as mp

import _field


def task(seed: int) -> int:
    import numpy as np
    import polars as pl

    rng = np.random.default_rng(seed)
    df = pl.DataFrame({"k": rng.integers(0, 100, 300_000), "v": rng.standard_normal(300_000)})
    out = df.group_by("k").agg(pl.col("v").std()).filter(pl.col("v") > 0)
    return out.height


def main() -> None:
    with mp.get_context("spawn").Pool(2) as pool:
        assert pool.apply(task, (0,)) > 0
        _field.ready()
        seed = 0
        while not _field.over():  # rounds of 4: the pool's task feeder takes a whole iterable at once
            assert sum(pool.imap(task, range(seed, seed + 4))) >= 0
            seed += 4


if __name__ == "__main__":
    main()
