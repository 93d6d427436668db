"""A target whose module starts polars' thread pools when it is imported (as a module that runs a
query at import does): under ``run --start-method fork`` the harness imports it to resolve
``--target``, so the pools' threads live in the harness, and every forked worker's first query
waits for threads fork() did not copy (polars' documented multiprocessing hazard)."""

from __future__ import annotations

from collections.abc import Iterator

import polars as pl


def _query() -> int:
    df = pl.DataFrame({"k": [i % 7 for i in range(200_000)], "v": list(range(200_000))})
    return df.group_by("k").agg(pl.col("v").sum()).height


_query()  # the pools' threads now exist in whoever imported this module


def batches() -> Iterator[int]:
    """One query a batch."""
    while True:
        yield _query()
