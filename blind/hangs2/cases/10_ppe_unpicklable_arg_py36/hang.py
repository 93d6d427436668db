# bpo-31699 (python/cpython#75880): ProcessPoolExecutor deadlocks when a call cannot be pickled:
# the call queue's feeder thread fails to pickle the call item, prints the error and drops it;
# the future, already marked running, is never completed. CPython 3.6.15.
import threading
from concurrent.futures import ProcessPoolExecutor

def work(x, lock):
    return x

if __name__ == "__main__":
    ex = ProcessPoolExecutor(max_workers=1)
    fut = ex.submit(work, 1, threading.Lock())  # a lock cannot be pickled
    print("ready", flush=True)
    print(fut.result())
