# Look-alike: polars used in the parent, a forked child that does not touch polars and works 16 s.
import multiprocessing as mp, time
import polars as pl

def agg():
    df = pl.DataFrame({"k": [i % 7 for i in range(300_000)], "v": list(range(300_000))})
    return df.group_by("k").agg(pl.col("v").sum()).height

def child_job():
    time.sleep(16)
    print("child done", flush=True)

if __name__ == "__main__":
    print("parent", agg(), flush=True)
    p = mp.get_context("fork").Process(target=child_job)
    p.start()
    print("ready", flush=True)
    p.join()
    print("done", p.exitcode)
