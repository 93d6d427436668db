"""Shape: a consumer in multiprocessing.Queue.get() on a queue that is merely empty (healthy):
the producer, alive, delivered a first item and sleeps before it puts the next.

Why it matters: the look-alike of an item dropped by a queue's feeder thread (catalogue
`mp-queue-put-unpicklable`): the consumer waits in read() on the queue's pipe with no byte in
it, and the producer has a feeder thread (it put before), but the producer will put again.
`inspect --tree` must not call it a hang. A watcher thread prints `ready` once the consumer
(main thread) is in read() and the producer sleeps (bounded /proc polls), and ends.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
from multiprocessing.queues import Queue
from typing import Any

PAUSE_S = 3600.0
CTX = mp.get_context("fork")


def produce(q: Queue[Any]) -> None:
    q.put({"item": 1})
    time.sleep(PAUSE_S)  # the next item takes long to make
    q.put({"item": 2})


def call(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            return fh.read().split()[0]
    except (OSError, IndexError):
        return ""


def watch(me: int, producer: int) -> None:
    run, deadline = 0, time.monotonic() + 60
    while run < 10 and time.monotonic() < deadline:
        ok = call(me) in ("0", "63") and call(producer) in ("230", "35", "115", "101")
        run = run + 1 if ok else 0
        time.sleep(0.05)  # the polling interval of a bounded /proc poll
    print("ready" if run >= 10 else "never settled", flush=True)


def main() -> None:
    q: Queue[Any] = CTX.Queue()
    p = CTX.Process(target=produce, args=(q,), daemon=True)
    p.start()
    assert q.get(timeout=60) == {"item": 1}
    print(f"producer {p.pid}", flush=True)
    threading.Thread(target=watch, args=(os.getpid(), p.pid), daemon=True).start()
    q.get()  # empty now; the producer puts again in an hour
    p.join()


if __name__ == "__main__":
    main()
