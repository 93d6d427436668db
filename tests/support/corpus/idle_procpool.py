"""Shape: a ProcessPoolExecutor(2) (spawn context) that ran one task; main in time.sleep.

Why it matters: the parent gets management threads (the executor's queue-management
thread and the multiprocessing.Queue feeder thread) that wait forever, and the child is an
idle worker process blocked reading the call-queue pipe; the spawn context also starts a
resource_tracker process (blocked in read). All of it is healthy. Prints the worker pid(s),
then `ready` after the task's result came back.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import multiprocessing as mp
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def task(x: int) -> int:
    return x * 2 + os.getpid() * 0


def main() -> None:
    # argv[1] = N: N workers, all started (N * 10 tasks); then N - 1 of them wait on the call
    # queue's shared lock (a SemLock futex) while one reads the pipe.
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    pool = ProcessPoolExecutor(max(n, 2), mp_context=mp.get_context("spawn"))
    assert pool.submit(task, 21).result(timeout=60) == 42
    if n:
        assert list(pool.map(task, range(n * 10))) == [2 * x for x in range(n * 10)]
    # With a spawn context 3.11 starts workers on demand: after one task only ONE worker exists.
    kids = sorted(p.pid for p in pool._processes.values() if p.pid is not None)
    print("children " + " ".join(str(k) for k in kids), flush=True)
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
