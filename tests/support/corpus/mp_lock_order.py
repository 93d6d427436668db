"""Shape: two processes take two multiprocessing Locks in opposite orders.

Why it matters: each lock is a semaphore in shared memory, which names no owner; each process
waits for the lock the other holds, and the two map both: by elimination, only the other could
post the one it waits on. A helper thread prints `ready` once /proc shows both in futex waits
(bounded: exit 3).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import multiprocessing as mp
import os
import sys
import threading
import time

FUTEX = "202"


def syscall(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            return fh.read().split()[0]
    except (OSError, IndexError):
        return ""


def other(a: "mp.synchronize.Lock", b: "mp.synchronize.Lock", took: "mp.synchronize.Event") -> None:
    with b:
        took.set()
        with a:  # the parent holds it, and waits for b
            pass


def main() -> None:
    ctx = mp.get_context("spawn")
    a, b, took = ctx.Lock(), ctx.Lock(), ctx.Event()
    child = ctx.Process(target=other, args=(a, b, took))
    with a:
        child.start()
        took.wait(20)
        me = os.getpid()

        def watch() -> None:
            deadline = time.monotonic() + 20.0
            while not (syscall(child.pid or 0) == FUTEX and syscall(me) == FUTEX):
                if time.monotonic() > deadline:
                    print("the wait never started", file=sys.stderr, flush=True)
                    os._exit(3)
                time.sleep(0.02)  # a /proc poll with a deadline
            print("ready", flush=True)

        threading.Thread(target=watch, daemon=True).start()
        with b:  # the child holds it, and waits for a
            pass
    child.join()


if __name__ == "__main__":
    main()
