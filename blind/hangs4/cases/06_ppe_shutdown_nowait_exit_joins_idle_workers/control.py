# Control: the same program on CPython 3.9.18, where the reworked executor (bpo-39104/bpo-39205) still
# sends the workers their sentinels after shutdown(wait=False); the interpreter exits.
import concurrent.futures
import time


def work(x):
    time.sleep(0.5)
    return x * x


if __name__ == "__main__":
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=2)
    fut = pool.submit(work, 7)
    pool.shutdown(wait=False)       # returns at once; the task is still queued or running
    print("ready", flush=True)      # the interpreter now exits: atexit joins the workers
