"""Shape: every worker of a ThreadPoolExecutor waits on a future queued behind it.

Why it matters: each task submits a subtask to its own pool and waits for its result, so with
all workers busy the subtasks never start: a closed wait set made only of Condition waits,
which reads like a lost wakeup but is thread-pool exhaustion (the fix is different). A barrier
makes both tasks run before either submits. A watcher thread prints `ready` once main and
both workers are parked in futex waits, then exits.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

FUTEX = "202"  # x86_64
WORKERS = 2


def parked(tids: list[int]) -> bool:
    try:
        return all(open(f"/proc/self/task/{t}/syscall").read().split()[0] == FUTEX for t in tids)
    except (OSError, IndexError):
        return False


def main() -> None:
    pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="exhaust")
    both = threading.Barrier(WORKERS)
    tids: list[int] = [threading.get_native_id()]

    def part() -> int:
        return 1

    def task() -> int:
        tids.append(threading.get_native_id())
        both.wait(10)
        return pool.submit(part).result()  # queued behind this very task: never runs

    def watcher() -> None:
        deadline = time.monotonic() + 10.0
        while len(tids) < WORKERS + 1 or not parked(tids):
            if time.monotonic() > deadline:
                print("never parked", file=sys.stderr, flush=True)
                os._exit(3)
            time.sleep(0.02)
        print("ready", flush=True)

    futures = [pool.submit(task) for _ in range(WORKERS)]
    threading.Thread(target=watcher, daemon=True).start()
    futures[0].result()


if __name__ == "__main__":
    main()
