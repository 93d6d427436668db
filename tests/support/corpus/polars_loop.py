"""Shape: a rayon kernel at work: polars group_by in a loop (its pool's threads all busy).

Why it matters: many threads burn CPU inside a native library's loop while the main thread waits
for them in a latch; their stacks move (different kernels, allocations, page faults): `inspect`
must say busy, never a named spin.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import polars as pl


def main() -> None:
    df = pl.DataFrame({"k": [i % 1013 for i in range(2_000_000)], "v": list(range(2_000_000))})
    df.group_by("k").agg(pl.col("v").sum())  # the pool exists and has run
    print("ready", flush=True)
    while True:
        df.group_by("k").agg(pl.col("v").sum(), pl.col("v").max().alias("mx")).sort("k")


if __name__ == "__main__":
    main()
