# Control: the same program on the fixed release (polars 0.13.40: the GIL is released while the
# pool works), it completes.
import polars as pl

df = pl.DataFrame({"col1": [[1, 2, 3]]})
print("ready", flush=True)
print(df.with_column(pl.col("col1").arr.eval(pl.col("").apply(lambda x: x))))
