"""Shape: a producer Process (fork) blocked in a full multiprocessing.Queue(maxsize=4).put()
behind a slow consumer (the parent, 3 s per item): the put waits on a semaphore in shared memory
that only the consumer's get() releases."""

from __future__ import annotations

import multiprocessing as mp
import time
from typing import Any

import _field


def produce(q: Any, seconds: float) -> None:
    until = time.time() + seconds  # from the child's start
    n = 0
    while time.time() < until:
        q.put(bytes(1000), timeout=_field.MAX_S)  # blocks while the queue is full
        n += 1
    q.put(None)


def main() -> None:
    ctx = mp.get_context("fork")
    q = ctx.Queue(maxsize=4)
    producer = ctx.Process(target=produce, args=(q, _field.SECONDS + 0.5))
    producer.start()
    _field.settle(lambda: q.full() and _field.in_calls(producer.pid or 0, ["futex"]), "producer blocked")
    _field.ready()
    while (item := q.get(timeout=_field.MAX_S)) is not None:
        assert len(item) == 1000
        time.sleep(min(3.0, _field.left()))  # the consumer's slow step
    producer.join(30)


if __name__ == "__main__":
    main()
