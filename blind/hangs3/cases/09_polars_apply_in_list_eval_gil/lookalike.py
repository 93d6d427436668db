# Look-alike: the same arr.eval(apply) on the fixed release, with a lambda that is slow (16 s) for
# its first element: the caller waits on the pool while a pool thread runs Python; it completes.
import time
import polars as pl


def slow_identity(x):
    if x == 1:
        time.sleep(16)
    return x


df = pl.DataFrame({"col1": [[1, 2, 3]]})
print("ready", flush=True)
print(df.with_column(pl.col("col1").arr.eval(pl.col("").apply(slow_identity))))
