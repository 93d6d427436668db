"""Shape: a healthy timed-wait loop -- `while not ev.wait(1.0): pass` -- plus an idle thread pool.

Why it matters: the main thread spends nearly all its time in a futex wait, like a hung
thread, but with a timeout; it wakes every second (voluntary context switches keep
rising) and could react to the event. Rules that rely on "futex with timeout" vs
"futex without timeout" need to see this case.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import threading
import time
from concurrent.futures import ThreadPoolExecutor


def main() -> None:
    pool = ThreadPoolExecutor(2, thread_name_prefix="twpool")
    for f in [pool.submit(time.sleep, 0.05) for _ in range(4)]:
        f.result()
    ev = threading.Event()
    print("ready", flush=True)
    while not ev.wait(1.0):
        pass


if __name__ == "__main__":
    main()
