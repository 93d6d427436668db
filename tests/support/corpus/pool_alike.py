"""Shape: healthy look-alikes of a pool that lost a task: the launcher waits, and the wait ends.

    python pool_alike.py KIND API [START]
        KIND: compute, sleep, io, between, shutdown, starting; API: pool, ppe;
        START: fork (the default), spawn, forkserver

Why it matters: the launcher looks as it does in a lost task (its main thread waits for a result,
one worker waits for a task), but one worker is inside its task, computing (state R), sleeping
(clock_nanosleep) or reading a pipe its own child writes later; or the launcher does something
else while both workers wait for a task (``between``); or (``shutdown``, the reported false
alarm) a ProcessPoolExecutor's `with` block exits, so shutdown(wait=True) joins the manager
thread while the task sleeps; or (``starting``) the workers of a spawn or forkserver pool are
still importing the main module (a slow import: a model downloaded, a big library), so no worker
exists yet. Under forkserver the workers are the forkserver's children, not the launcher's
(Python 3.14's default start method on Linux). `inspect --tree` must call none of these a hang.

The task sets an event (handed to each worker by the pool's initializer) when it starts; a worker
still starting touches the file `STARTING` names; `ready` is printed once /proc shows the
launcher's main thread settled in its wait (a bounded poll, never a sleep).
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
from pathlib import Path
from typing import Any

LONG = 3600.0
STARTING = "POOL_ALIKE_STARTING"
"""Where a worker still starting says so (an environment variable its launcher sets)."""
STARTED: Any = None
WAITS = {"between": {"230", "35"}, "starting": {"202", "0"}}
"""x86_64: clock_nanosleep, nanosleep, futex (the default), read (a forkserver's answer)."""


if __name__ == "__mp_main__" and (_path := os.environ.get(STARTING)):
    # a pool's process importing this module again (a spawned worker; a forkserver, before it
    # forks any worker, while the launcher waits for its answer): the slow import under test
    Path(_path).touch()
    time.sleep(LONG)


def keep(started: Any) -> None:
    """The pool's initializer: the event the task sets, in the worker."""
    global STARTED  # a worker's copy of the launcher's event
    STARTED = started


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


def announce(kind: str, marker: Path) -> None:
    """Once the task started (or the pool ran one map, or a worker began its slow start), and the
    main thread holds its wait for ten polls in a row: `ready`."""
    if kind == "starting":
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)  # a bounded poll of the file the starting worker touches
    else:
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
    global STARTED  # the launcher's event, handed to the workers
    kind, api = sys.argv[1], sys.argv[2]
    ctx = mp.get_context(sys.argv[3] if len(sys.argv) > 3 else "fork")
    STARTED = ctx.Event()
    marker = Path(os.environ.get("TMPDIR", "/tmp")) / f"pool-alike-{os.getpid()}.starting"
    if kind == "starting":
        os.environ[STARTING] = str(marker)
    threading.Thread(target=announce, args=(kind, marker), daemon=True).start()
    try:
        run(kind, api, ctx)
    finally:
        marker.unlink(missing_ok=True)


def run(kind: str, api: str, ctx: Any) -> None:
    if api == "pool":
        pool = ctx.Pool(2, initializer=keep, initargs=(STARTED,))
        if kind == "between":
            pool.map(task, ["between"] * 4)
            time.sleep(LONG)  # the launcher does something else: the shape under test
        pool.map(task, [kind])
        return
    if kind == "shutdown":
        with ProcessPoolExecutor(2, mp_context=ctx, initializer=keep, initargs=(STARTED,)) as ex:
            ex.submit(task, kind)
        return
    ex = ProcessPoolExecutor(2, mp_context=ctx, initializer=keep, initargs=(STARTED,))
    if kind == "between":
        list(ex.map(task, ["between"] * 4))
        time.sleep(LONG)  # the shape under test
    ex.submit(task, kind).result()


if __name__ == "__main__":
    main()
