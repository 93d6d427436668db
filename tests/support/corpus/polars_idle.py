"""Shape: polars imported and used (group_by / sort), so its rayon thread pool exists; main sleeps.

Why it matters: polars starts a rayon pool (threads "polars-N", one per core) plus tokio
("tokio-rt-worker"), async-executor, spill-cleaner and jemalloc background threads, and all
of them park in untimed futex waits (or epoll_wait) once idle. They are native (no Python
frames, invisible to py-spy) and must be recognised as idle pools, not as stuck threads.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import time

import polars as pl


def main() -> None:
    df = pl.DataFrame({"k": [i % 7 for i in range(200_000)], "v": list(range(200_000))})
    for _ in range(3):
        g = df.group_by("k").agg(pl.col("v").sum(), pl.col("v").mean().alias("m")).sort("k")
        s = df.sort("v", descending=True).head(5)
        lz = df.lazy().filter(pl.col("v") % 3 == 0).group_by("k").len().sort("k").collect()
    assert g.height == 7
    assert s.height == 5
    assert lz.height == 7
    print(f"threadpool_size {pl.thread_pool_size()}", flush=True)
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
