"""Shape: main thread blocked in os.read() on a pipe a slow producer has not written yet (a
child process that holds the write end and sleeps); an idle ThreadPoolExecutor.

Why it matters: a thread waiting on I/O (pipe_read / read syscall on fd N -> pipe:[inode])
is blocked but not deadlocked: whether it wakes depends on another party, here a live process
on a timer. Rules should see a read(2) on a pipe, not a futex, and follow it to that party.
(With the write end held by this process alone and nothing to write it, the same read is a
self-wait: `cat_own_stdin`.)
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor


def main() -> None:
    pool = ThreadPoolExecutor(2, thread_name_prefix="rpool")
    for f in [pool.submit(time.sleep, 0.05) for _ in range(4)]:
        f.result()
    r, w = os.pipe()
    # the producer: holds the write end, writes nothing for an hour (the shape's group is killed
    # whole when the test ends)
    subprocess.Popen(["sleep", "3600"], pass_fds=(w,))
    os.close(w)
    print(f"pipe r={r} w={w}", flush=True)
    print("ready", flush=True)
    while True:
        os.read(r, 1)


if __name__ == "__main__":
    main()
