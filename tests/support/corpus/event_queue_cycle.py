"""Shape: a parent waits on a multiprocessing.Event that its child sets only after it gets an
item from a multiprocessing.Queue, which the parent fills only after the Event is set.

Why it matters: the parent waits on a semaphore in shared memory (another process may post
it), the child reads a pipe whose write ends both hold (another process may write it): each
wait alone may end from outside. Only by elimination over who maps the semaphore and who holds
the pipe does it show that each waits for the other. The parent prints `ready` once /proc shows
the child in read() (bounded: exit 3), then waits.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import multiprocessing
import os
import sys
import time
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event

READ = "0"
"""x86_64 read(), as /proc/PID/syscall prints it."""


def child(items: "Queue[int]", started: Event) -> None:
    items.get()
    started.set()


def _in_read(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            return fh.read().split()[0] == READ
    except (OSError, IndexError):
        return False


def main() -> None:
    ctx = multiprocessing.get_context("spawn")
    items: Queue[int] = ctx.Queue()
    started = ctx.Event()
    p = ctx.Process(target=child, args=(items, started))
    p.start()
    deadline = time.monotonic() + 20.0
    while p.pid is None or not _in_read(p.pid):
        if time.monotonic() > deadline:
            print("the child never waited", file=sys.stderr, flush=True)
            os._exit(3)
        time.sleep(0.02)  # a /proc poll with a deadline
    print("ready", flush=True)
    started.wait()  # the child sets it after its first item...
    items.put(1)  # ...which is put only after it is set


if __name__ == "__main__":
    main()
