"""Polars' documented multiprocessing hazard: fork after polars' thread pools started, then run a
query in the child; it waits for runtime threads the fork did not copy. Control: a spawn child."""

import multiprocessing as mp
import os

import _ready
import polars as pl


def query(df: "pl.DataFrame") -> int:
    out = df.group_by("k").agg(pl.col("v").sum(), pl.col("v").max().alias("mx")).sort("k")
    return out.height


def in_child() -> None:
    df = pl.DataFrame({"k": [i % 11 for i in range(300_000)], "v": list(range(300_000))})
    assert query(df) == 11


def main() -> None:
    df = pl.DataFrame({"k": [i % 11 for i in range(300_000)], "v": list(range(300_000))})
    query(df)  # the pools' threads now exist
    if _ready.control():
        p = mp.get_context("spawn").Process(target=in_child)
        p.start()
        p.join(timeout=120)
        assert p.exitcode == 0, p.exitcode
        return
    pid = os.fork()
    if pid == 0:
        query(df)
        os._exit(0)
    _ready.settled(lambda: _ready.parked(pid), "parked")
    _ready.announce(pid)
    _ready.forever()


if __name__ == "__main__":
    main()
