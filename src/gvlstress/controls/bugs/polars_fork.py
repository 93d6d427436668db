"""Polars' documented multiprocessing hazard: fork after polars' thread pools started, then run a
query in the child; it waits for runtime threads the fork did not copy. Control: a spawn child."""

import _ready
import polars as pl


def query() -> None:
    df = pl.DataFrame({"k": [i % 11 for i in range(300_000)], "v": list(range(300_000))})
    out = df.group_by("k").agg(pl.col("v").sum(), pl.col("v").max().alias("mx")).sort("k")
    assert out.height == 11


if __name__ == "__main__":
    query()  # the pools' threads now exist
    _ready.fork_or_spawn(query)
