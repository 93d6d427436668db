"""Shape: a consumer blocked in multiprocessing.Queue.get() behind a producer Process (spawn) that
takes 4 s per item (a slow reader of a remote source): the consumer's wait is on a live peer."""

from __future__ import annotations

import multiprocessing as mp
import time
from typing import Any

import _field


def produce(q: Any, seconds: float) -> None:
    until = time.time() + seconds  # from the child's start
    n = 0
    while time.time() < until:
        time.sleep(min(4.0, max(0.0, until - time.time())))  # fetching the next item
        q.put(("item", n))
        n += 1
    q.put(None)


def main() -> None:
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    producer = ctx.Process(target=produce, args=(q, _field.SECONDS + 0.5))
    producer.start()
    _field.settle(lambda: _field.in_calls(producer.pid or 0, ["clock_nanosleep", "nanosleep"]), "producer")
    _field.ready()
    while q.get(timeout=_field.MAX_S) is not None:
        pass
    producer.join(30)


if __name__ == "__main__":
    main()
