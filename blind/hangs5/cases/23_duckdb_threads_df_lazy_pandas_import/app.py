import threading
import time

import duckdb


def run(threads=2, stagger=0.0, query="select 42 as answer"):
    con = duckdb.connect()                          # one database, a cursor per thread (as documented)
    start = threading.Barrier(threads + 1)          # the workers and the main thread

    def worker(i):
        local = con.cursor()
        start.wait()
        time.sleep(stagger * i)
        df = local.execute(query).df()             # DuckDB converts to pandas (imports it lazily)
        print(f"worker {i}: {df.iloc[0, 0]}", flush=True)

    ts = [threading.Thread(target=worker, args=(i,), name=f"read_thread_{i}") for i in range(threads)]
    for t in ts:
        t.start()
    print("ready", flush=True)                      # printed before the workers are released: once they
    start.wait()                                    # deadlock, one holds the GIL and nothing else can print
    for t in ts:
        t.join()
    print("all workers done", flush=True)
