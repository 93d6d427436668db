# Look-alike: the same executor on CPython 3.6.15; the call pickles and works 16 s in the worker.
import time
from concurrent.futures import ProcessPoolExecutor

def work(x, delay):
    time.sleep(delay)
    return x

if __name__ == "__main__":
    ex = ProcessPoolExecutor(max_workers=1)
    fut = ex.submit(work, 1, 16)
    print("ready", flush=True)
    print(fut.result())
    ex.shutdown()
