"""Shape: a multiprocessing.Pool(maxtasksperchild=1) working through a long map of slow tasks
(healthy): every worker retires after one task and the pool starts a new one.

Why it matters: the look-alike of a pool that respawns workers dying at start (catalogue
`pool-initializer-raises`): worker pids come and go about every 0.2 s and the parent waits in
map(), but each worker runs a task (a sleep) and results arrive. A watcher thread prints
`ready` once it has seen at least 6 distinct workers and the main thread waits in a futex
(bounded /proc polls), and ends.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time

TASK_S, SEEN = 0.2, 6


def task(i: int) -> int:
    time.sleep(TASK_S)  # the task's work
    return i


def workers(pid: int) -> set[int]:
    out: set[int] = set()
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                out.update(int(k) for k in fh.read().split())
        except OSError:
            continue
    return out


def call(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            return fh.read().split()[0]
    except (OSError, IndexError):
        return ""


def watch(me: int) -> None:
    seen: set[int] = set()
    run, deadline = 0, time.monotonic() + 60
    while run < 10 and time.monotonic() < deadline:
        seen |= workers(me)
        run = run + 1 if len(seen) >= SEEN and call(me) in ("202", "98") else 0
        time.sleep(0.05)  # the polling interval of a bounded /proc poll
    print("ready" if run >= 10 else "never settled", flush=True)


def main() -> None:
    threading.Thread(target=watch, args=(os.getpid(),), daemon=True).start()
    with mp.get_context("fork").Pool(2, maxtasksperchild=1) as pool:
        pool.map(task, range(100_000), chunksize=1)


if __name__ == "__main__":
    main()
