# Look-alike: one-worker ProcessPoolExecutor, launcher blocked in Future.result() on a queue of
# tasks, each task slow (sleeps); it finishes by itself (~18 s).
import os, time
from concurrent.futures import ProcessPoolExecutor

def work(i):
    time.sleep(2.0)
    return os.getpid()

if __name__ == "__main__":
    with ProcessPoolExecutor(1) as exe:
        futs = [exe.submit(work, i) for i in range(10)]
        futs[0].result(); futs[1].result()
        print("ready", flush=True)
        for f in futs:
            f.result()
    print("done")
