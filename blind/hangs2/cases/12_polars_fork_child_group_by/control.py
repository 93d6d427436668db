# Control: the fix from the polars docs (multiprocessing page): start the child with "spawn".
import multiprocessing as mp
import polars as pl

def agg():
    df = pl.DataFrame({"k": [i % 7 for i in range(300_000)], "v": list(range(300_000))})
    return df.group_by("k").agg(pl.col("v").sum()).height

def child_job():
    print("child", agg(), flush=True)

if __name__ == "__main__":
    print("parent", agg(), flush=True)
    p = mp.get_context("spawn").Process(target=child_job)
    p.start()
    print("ready", flush=True)
    p.join()
    print("done", p.exitcode)
