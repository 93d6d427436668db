# langchain-ai/langchain#10638 (max_concurrency=1): a task running on a one-worker
# ThreadPoolExecutor submits a sub-task to the same executor and waits for its result.
from concurrent.futures import ThreadPoolExecutor

ex = ThreadPoolExecutor(max_workers=1)

def inner():
    return 1

def outer():
    fut = ex.submit(inner)  # queued behind outer: only this worker could run it
    print("ready", flush=True)
    return fut.result()

print(ex.submit(outer).result())
