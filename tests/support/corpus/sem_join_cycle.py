"""Shape: a parent takes a multiprocessing Lock, starts a child that takes the same lock, and
joins the child.

Why it matters: the lock is a semaphore in shared memory, which names no owner; only the
processes that map it can post it, and the only other one, the parent, waits for the child to
exit: a cycle across two processes through a semaphore and a join. A helper thread prints
`ready` once /proc shows the child in its futex wait and the parent in wait4() (bounded: exit 3).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import multiprocessing as mp
import os
import sys
import threading
import time

FUTEX, WAIT4 = "202", "61"


def syscall(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            return fh.read().split()[0]
    except (OSError, IndexError):
        return ""


def take(lock: "mp.synchronize.Lock") -> None:
    with lock:  # the parent holds it, and waits for this process to exit
        pass


def main() -> None:
    ctx = mp.get_context("spawn")
    lock = ctx.Lock()
    lock.acquire()
    child = ctx.Process(target=take, args=(lock,))
    child.start()
    me = os.getpid()

    def watch() -> None:
        deadline = time.monotonic() + 20.0
        while not (syscall(child.pid or 0) == FUTEX and syscall(me) == WAIT4):
            if time.monotonic() > deadline:
                print("the wait never started", file=sys.stderr, flush=True)
                os._exit(3)
            time.sleep(0.02)  # a /proc poll with a deadline
        print("ready", flush=True)

    threading.Thread(target=watch, daemon=True).start()
    child.join()


if __name__ == "__main__":
    main()
