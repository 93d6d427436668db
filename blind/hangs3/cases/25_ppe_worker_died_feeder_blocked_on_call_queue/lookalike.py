# Look-alike: the same pool and tasks, but the worker survives: its first task takes 16 s, then it reads
# the large second task (the feeder's write completes) and everything ends. CPython 3.10.13.
import time
from concurrent.futures import ProcessPoolExecutor


def first_task(seconds):
    time.sleep(seconds)
    return "ok"


def second_task(blob):
    return len(blob)


if __name__ == "__main__":
    ex = ProcessPoolExecutor(max_workers=1)
    f1 = ex.submit(first_task, 16)
    f2 = ex.submit(second_task, b"x" * (4 << 20))
    print("ready", flush=True)
    print(f1.result(), f2.result(), flush=True)
    ex.shutdown(wait=True)
    print("done")
