"""Shape: a thread holds a lock while it waits for a thread pool's results, and each task takes
that lock.

Why it matters: a Python lock names no owner, but every busy worker waits for the one lock and
the waiting thread is the only other one: only it can hold the lock, across its wait for the
tasks that need it (one lock for every instance of a class, as functools.cached_property before
3.12). A helper thread prints `ready` once /proc shows both workers in futex waits, then exits.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import handshake

LOCK = threading.RLock()
TIDS: list[int] = []


def child_count(n: int) -> int:
    TIDS.append(threading.get_native_id())
    with LOCK:  # the parent's call holds it while it waits for this task
        return n


def main() -> None:
    with ThreadPoolExecutor(max_workers=2) as pool, LOCK:
        futures = [pool.submit(child_count, n) for n in range(2)]
        handshake.ready_once_in(handshake.FUTEX, lambda: list(TIDS), count=2)
        for f in futures:
            f.result()


if __name__ == "__main__":
    main()
