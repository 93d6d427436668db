"""Shape: polars lazy group_by/agg over 2M rows, collected over and over: polars' own thread
pool (rayon) computes, the main thread waits inside collect() with the GIL released."""

from __future__ import annotations

import _field
import numpy as np
import polars as pl


def main() -> None:
    rng = np.random.default_rng(5)
    n = 2_000_000
    df = pl.DataFrame({"key": rng.integers(0, 1000, n), "x": rng.standard_normal(n), "y": rng.random(n)})
    query = df.lazy().group_by("key").agg(pl.col("x").mean(), pl.col("y").sum(), pl.len()).sort("key")
    assert query.collect().height == 1000
    _field.ready()
    while not _field.over():
        assert query.collect().height == 1000


if __name__ == "__main__":
    main()
