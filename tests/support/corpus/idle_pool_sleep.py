"""Shape: an idle ThreadPoolExecutor(4) whose workers already ran tasks; main in time.sleep(3600).

Why it matters: this is the most common "looks stuck, is healthy" process. Every worker is
parked forever in a futex wait (queue.get with no timeout) and the main thread is asleep,
so nothing burns CPU and nothing progresses, yet there is no deadlock. Judging rules must
not call it one.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import time
from concurrent.futures import ThreadPoolExecutor


def main() -> None:
    pool = ThreadPoolExecutor(4, thread_name_prefix="idlepool")
    # Enough overlapping tasks that all four workers get created.
    futs = [pool.submit(time.sleep, 0.05) for _ in range(8)]
    for f in futs:
        f.result()
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
