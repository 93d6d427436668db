# pola-rs/polars#3409 (Using apply in eval context causes Python interpreter to hang): arr.eval() runs
# its expression on polars' rayon thread pool while the calling thread keeps the GIL; the Python
# lambda of apply() needs the GIL on a pool thread. polars 0.13.34 on CPython 3.10.13.
import polars as pl

df = pl.DataFrame({"col1": [[1, 2, 3]]})
print("ready", flush=True)
print(df.with_column(pl.col("col1").arr.eval(pl.col("").apply(lambda x: x))))
