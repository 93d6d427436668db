"""A real rayon-backed loader: polars group-bys as batches (the bring-your-own example of docs/own-loader.md).

    gvlstress run --target examples.polars_loader:batches --workers 3 --rayon 4
    gvlstress run --target examples.polars_loader:batches --start-method fork --warm-parent

The first is healthy (exit 0). The second starts polars' pools in the supervisor and then forks
the workers: each child inherits the pools' state but not their threads, and its first query
waits forever (fork after pool start: exit 1, named).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import polars as pl


def batches(rows: int = 200_000, groups: int = 97, seed: int = 0) -> Iterator[pl.DataFrame]:
    """One group-by/sort/join per batch over a frame built from `seed`."""
    keys = pl.int_range(0, rows, eager=True).hash(seed) % groups
    df = pl.DataFrame({"k": keys, "v": pl.int_range(0, rows, eager=True)})
    names = pl.DataFrame(
        {"k": pl.int_range(0, groups, eager=True).cast(keys.dtype), "name": [f"g{i}" for i in range(groups)]}
    )
    while True:
        agg = df.group_by("k").agg(pl.col("v").sum().alias("total"), pl.col("v").max().alias("top"))
        yield agg.join(names, on="k").sort("total", descending=True)


def describe() -> dict[str, Any]:
    """Facts for run.json: the pool polars sized (POLARS_MAX_THREADS, set by --rayon)."""
    return {
        "rayon_threads": pl.thread_pool_size(),
        "polars": pl.__version__,
        "POLARS_MAX_THREADS": os.environ.get("POLARS_MAX_THREADS"),
    }


batches.thread_env = ("POLARS_MAX_THREADS",)  # type: ignore[attr-defined]
batches.describe = describe  # type: ignore[attr-defined]
