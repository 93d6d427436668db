"""Shape: main thread blocked in os.read() on a pipe nobody writes; an idle ThreadPoolExecutor.

Why it matters: a thread waiting on I/O (pipe_read / read syscall on fd N -> pipe:[inode])
is blocked but not deadlocked in the lock sense: whether it ever wakes depends on another
party. The write end stays open in this process, so EOF never comes. Rules should see a
read(2) on a pipe, not a futex.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import time
from concurrent.futures import ThreadPoolExecutor


def main() -> None:
    pool = ThreadPoolExecutor(2, thread_name_prefix="rpool")
    for f in [pool.submit(time.sleep, 0.05) for _ in range(4)]:
        f.result()
    r, w = os.pipe()  # keep w open so read() never sees EOF
    print(f"pipe r={r} w={w}", flush=True)
    print("ready", flush=True)
    while True:
        os.read(r, 1)


if __name__ == "__main__":
    main()
