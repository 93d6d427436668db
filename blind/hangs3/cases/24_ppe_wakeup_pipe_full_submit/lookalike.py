# Look-alike: the same executor; a single task takes 16 s in the worker; the main thread waits for its
# result, then the pool shuts down. CPython 3.10.13.
import time
from concurrent.futures import ProcessPoolExecutor


def task(i):
    time.sleep(16)
    return i


if __name__ == "__main__":
    ex = ProcessPoolExecutor(max_workers=1)
    fut = ex.submit(task, 1)
    print("ready", flush=True)
    print("result", fut.result())
    ex.shutdown(wait=True)
    print("done")
