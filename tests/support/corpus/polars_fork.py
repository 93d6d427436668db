"""Shape: fork after polars' pool started; the child runs a polars query and hangs.

Why it matters: a fork-after-threads hang. The child inherits polars' runtimes (rayon pool,
tokio runtime, async executor) but none of their threads. With polars 1.44 the group_by
goes to the streaming engine, which parks in tokio Runtime::block_on waiting for executor
threads that do not exist: an untimed futex wait in a process with a single thread. The
parent is healthy (it just sleeps). The parent prints `child <pid>` and, once the child's
only thread sits stably in futex (polled from /proc, bounded to 20 s), `ready`.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import sys
import time

import polars as pl

FUTEX = 202  # x86_64


def make_df() -> "pl.DataFrame":
    return pl.DataFrame({"k": [i % 11 for i in range(300_000)], "v": list(range(300_000))})


def child_syscall(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            return fh.read().split()[0]
    except (OSError, IndexError):
        return ""


def main() -> None:
    df = make_df()
    df.group_by("k").agg(pl.col("v").sum()).sort("k")  # pool threads now exist
    pid = os.fork()
    if pid == 0:
        try:
            df.group_by("k").agg(pl.col("v").sum(), pl.col("v").max().alias("mx")).sort("k")
            os.write(2, b"child query unexpectedly finished\n")
        finally:
            os._exit(0)
    print(f"child {pid}", flush=True)
    deadline = time.monotonic() + 20.0
    stable = 0
    while stable < 5:
        if time.monotonic() > deadline:
            print("child never parked", file=sys.stderr, flush=True)
            os._exit(3)
        stable = stable + 1 if child_syscall(pid) == str(FUTEX) else 0
        time.sleep(0.05)
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
