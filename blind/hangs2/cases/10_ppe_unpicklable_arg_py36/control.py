# Control: the same program on CPython 3.7.16 (bpo-31699 fixed: the pickling error is set on the
# future, result() raises).
import threading
from concurrent.futures import ProcessPoolExecutor

def work(x, lock):
    return x

if __name__ == "__main__":
    ex = ProcessPoolExecutor(max_workers=1)
    fut = ex.submit(work, 1, threading.Lock())  # a lock cannot be pickled
    print("ready", flush=True)
    try:
        print(fut.result())
    except Exception as e:
        print("raised", type(e).__name__)
    ex.shutdown()
