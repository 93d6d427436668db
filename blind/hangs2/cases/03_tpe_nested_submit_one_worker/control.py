# Control: the sub-task runs on its own executor (the nested call does not take a slot of the
# pool it waits from).
from concurrent.futures import ThreadPoolExecutor

ex = ThreadPoolExecutor(max_workers=1)
inner_ex = ThreadPoolExecutor(max_workers=1)

def inner():
    return 1

def outer():
    fut = inner_ex.submit(inner)
    print("ready", flush=True)
    return fut.result()

print(ex.submit(outer).result())
