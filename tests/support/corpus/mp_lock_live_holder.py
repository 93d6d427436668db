"""Shape: a lock shared between processes, held by a live process that is slow (healthy).

Why it matters: the look-alike of a lock whose holder died (catalogue `pool-lock-holder-killed`):
two processes wait, untimed, on a multiprocessing.Lock (a POSIX semaphore in shared memory,
mapped by every process of the tree), but its holder is alive, sleeping 10 minutes inside
`with lock:`, and will release it. `inspect --tree` must not call it a hang. A watcher thread of
the parent prints `holder PID`, `waiters PID PID`, then `ready` once /proc shows the holder in
clock_nanosleep and both waiters in a futex wait (a bounded poll), and ends.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import multiprocessing as mp
import threading
import time
from multiprocessing.synchronize import Lock

HOLD_S = 600.0
CTX = mp.get_context("fork")


def hold(lock: Lock) -> None:
    with lock:
        time.sleep(HOLD_S)  # slow work inside the lock: it ends, and the lock is released


def wait(lock: Lock) -> None:
    with lock:
        pass


def call(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            return fh.read().split()[0]
    except (OSError, IndexError):
        return ""


def watch(holder: int, waiters: list[int]) -> None:
    run, deadline = 0, time.monotonic() + 60
    while run < 10 and time.monotonic() < deadline:
        ok = call(holder) in ("230", "35", "115", "101") and all(call(w) in ("202", "98") for w in waiters)
        run = run + 1 if ok else 0
        time.sleep(0.05)  # the polling interval of a bounded /proc poll
    print("ready" if run >= 10 else "never settled", flush=True)


def main() -> None:
    lock = CTX.Lock()
    holder = CTX.Process(target=hold, args=(lock,))
    holder.start()
    while call(holder.pid or 0) not in ("230", "35", "115", "101"):  # the holder has the lock
        time.sleep(0.01)  # polling /proc until the holder sleeps inside the lock
    waiters = [CTX.Process(target=wait, args=(lock,)) for _ in range(2)]
    for w in waiters:
        w.start()
    pids = [w.pid or 0 for w in waiters]
    print(f"holder {holder.pid}", flush=True)
    print("waiters " + " ".join(map(str, pids)), flush=True)
    threading.Thread(target=watch, args=(holder.pid, pids), daemon=True).start()
    for w in waiters:
        w.join()
    holder.join()


if __name__ == "__main__":
    main()
