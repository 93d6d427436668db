# python/cpython#115634: ProcessPoolExecutor(1, max_tasks_per_child=2) stops scheduling after
# the first worker retires at its task limit (Python 3.11.7: affected).
import os
from concurrent.futures import ProcessPoolExecutor

def work(i):
    return os.getpid()

if __name__ == "__main__":
    with ProcessPoolExecutor(1, max_tasks_per_child=2) as exe:
        futs = [exe.submit(work, i) for i in range(10)]
        futs[0].result(); futs[1].result()
        print("ready", flush=True)
        for f in futs:
            f.result()
    print("done")
