"""Shape: healthy look-alikes of a pool that lost a task: the launcher waits, and the wait ends.

    python pool_alike.py KIND API     KIND: compute, sleep, io, between, shutdown; API: pool, ppe

Why it matters: the launcher looks as it does in a lost task (its main thread waits for a result,
one worker waits for a task), but one worker is inside its task, computing (state R), sleeping
(clock_nanosleep) or reading a pipe its own child writes later; or the launcher does something
else while both workers wait for a task (``between``); or (``shutdown``, the reported false
alarm) a ProcessPoolExecutor's `with` block exits, so shutdown(wait=True) joins the manager
thread while the task sleeps. `inspect --tree` must call none of these a hang.

The task sets an event inherited through fork when it starts; `ready` is printed once /proc shows
the launcher's main thread settled in its wait (a bounded poll, never a sleep).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import multiprocessing as mp
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

LONG = 3600.0
FORK = mp.get_context("fork")
STARTED = FORK.Event()
WAITS = {"between": {"230", "35"}}  # x86_64: clock_nanosleep, nanosleep; else futex (202)


def task(kind: str) -> object:
    STARTED.set()
    if kind == "compute":
        n = 0
        while True:  # advances: n grows, the lines it runs change
            n += 1
    if kind == "io":
        child = subprocess.Popen(["sh", "-c", f"sleep {LONG}; echo done"], stdout=subprocess.PIPE)
        assert child.stdout is not None
        return child.stdout.read()
    time.sleep(LONG if kind in ("sleep", "shutdown") else 0.01)  # the task's work
    return kind


def main_call(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/task/{pid}/syscall") as fh:
            return fh.read().split()[0]
    except (OSError, IndexError):
        return ""


def announce(kind: str) -> None:
    """Once the task started (or the pool ran one map), and the main thread holds its wait for
    ten polls in a row: `ready`."""
    STARTED.wait(60)
    want = WAITS.get(kind, {"202"})
    run, deadline = 0, time.monotonic() + 60
    while run < 10:
        if time.monotonic() > deadline:
            print("never settled", file=sys.stderr, flush=True)
            os._exit(3)
        run = run + 1 if main_call(os.getpid()) in want else 0
        time.sleep(0.05)  # the polling interval of a bounded /proc poll
    print("ready", flush=True)


def main() -> None:
    kind, api = sys.argv[1], sys.argv[2]
    threading.Thread(target=announce, args=(kind,), daemon=True).start()
    if api == "pool":
        pool = FORK.Pool(2)
        if kind == "between":
            pool.map(task, ["between"] * 4)
            time.sleep(LONG)  # the launcher does something else: the shape under test
        pool.map(task, [kind])
        return
    if kind == "shutdown":
        with ProcessPoolExecutor(2, mp_context=FORK) as ex:
            ex.submit(task, kind)
        return
    ex = ProcessPoolExecutor(2, mp_context=FORK)
    if kind == "between":
        list(ex.map(task, ["between"] * 4))
        time.sleep(LONG)  # the shape under test
    ex.submit(task, kind).result()


if __name__ == "__main__":
    main()
