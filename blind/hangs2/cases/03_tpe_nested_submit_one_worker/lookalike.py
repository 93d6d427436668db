# Look-alike: the one-worker task waits on a sub-task of a second executor that works 16 s.
from concurrent.futures import ThreadPoolExecutor
import time

ex = ThreadPoolExecutor(max_workers=1)
inner_ex = ThreadPoolExecutor(max_workers=1)

def inner():
    time.sleep(16)
    return 1

def outer():
    fut = inner_ex.submit(inner)
    print("ready", flush=True)
    return fut.result()

print(ex.submit(outer).result())
