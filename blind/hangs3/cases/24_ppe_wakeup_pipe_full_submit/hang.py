# python/cpython#105829 (concurrent.futures.ProcessPoolExecutor pool deadlocks when submitting many
# tasks): submit() writes a wake-up message to the manager thread's pipe while holding the executor's
# shutdown_lock; when the manager thread is slow to drain it, the pipe fills and submit() blocks in
# write(); the manager thread then needs shutdown_lock to clear the pipe. CPython 3.10.13 (fixed in
# 3.11 by PR #108513). Made deterministic as in that PR's regression test: the manager thread starts
# only once submit() is blocked on the full pipe.
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import process

MAIN_TID = threading.get_native_id()
submitting = [True]
_run = process._ExecutorManagerThread.run


def delayed_run(self):
    # handshake through /proc: wait until the main thread sits in write() (syscall 1), or has finished submitting
    while submitting[0]:
        with open(f"/proc/self/task/{MAIN_TID}/syscall") as f:
            if f.read().split()[0] == "1":
                break
        time.sleep(0.01)
    print("ready", flush=True)
    _run(self)


process._ExecutorManagerThread.run = delayed_run


def task(i):
    return i


if __name__ == "__main__":
    ex = ProcessPoolExecutor(max_workers=1)
    futs = [ex.submit(task, i) for i in range(40000)]     # 4-byte wake-ups: a 64 KiB pipe holds 16384
    submitting[0] = False
    print("submitted", len(futs), flush=True)
    ex.shutdown(wait=True, cancel_futures=True)
    print("done")
