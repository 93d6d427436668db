# python/cpython#83386 (bpo-39205, "Hang when interpreter exits after ProcessPoolExecutor.shutdown(
# wait=False)"): shutdown(wait=False) closes the call queue at once; the executor's queue management
# thread, which should send one stop sentinel per worker, can no longer put them, and at interpreter exit
# multiprocessing's atexit handler joins the (non-daemonic) workers, which still wait for a task or a
# sentinel on the call queue. CPython 3.8.18 (the executor was reworked in 3.9: bpo-39104/bpo-39205).
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
