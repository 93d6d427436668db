# pola-rs/polars#24162 (and #8032): polars used in the parent (its rayon thread pool started), then a
# multiprocessing child started with fork runs a parallel polars query: the child's job waits for
# pool threads that fork did not copy. polars 0.20.31 (before the fork warning/error).
import multiprocessing as mp
import polars as pl

def agg():
    df = pl.DataFrame({"k": [i % 7 for i in range(300_000)], "v": list(range(300_000))})
    return df.group_by("k").agg(pl.col("v").sum()).height

def child_job():
    print("child", agg(), flush=True)

if __name__ == "__main__":
    print("parent", agg(), flush=True)
    p = mp.get_context("fork").Process(target=child_job)
    p.start()
    print("ready", flush=True)
    p.join()
    print("done", p.exitcode)
