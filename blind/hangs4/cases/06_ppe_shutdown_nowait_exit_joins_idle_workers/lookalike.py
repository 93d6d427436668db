# Look-alike: CPython 3.8.18, the same executor and the same two workers; the task takes 16 s and the
# program shuts the pool down with wait=True, so the main thread waits (on the management thread, which
# waits on the workers) until the task is done, then the workers get their sentinels and exit.
import concurrent.futures
import time


def work(x):
    time.sleep(16)
    return x * x


if __name__ == "__main__":
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=2)
    fut = pool.submit(work, 7)
    print("ready", flush=True)
    pool.shutdown(wait=True)        # waits for the 16 s task, then stops the workers
    print("result", fut.result())
