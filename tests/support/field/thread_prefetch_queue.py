"""Shape: a data loader's prefetch thread blocked on a full queue.Queue(maxsize=2) while the
training loop (the main thread) sleeps through its step (a device busy elsewhere): the put waits
on a consumer that is alive and will take the next batch."""

from __future__ import annotations

import queue
import threading
import time

import _field


def load(q: queue.Queue[bytes | None], stop: threading.Event) -> None:
    while not stop.is_set():
        q.put(bytes(4096))  # blocks while the queue is full
    q.put(None)


def main() -> None:
    q: queue.Queue[bytes | None] = queue.Queue(maxsize=2)
    stop = threading.Event()
    loader = threading.Thread(target=load, args=(q, stop), name="prefetch")
    loader.start()
    _field.settle(lambda: q.full(), "the prefetch queue full")
    _field.ready()
    while not _field.over():
        q.get(timeout=_field.MAX_S)
        time.sleep(min(4.0, _field.left()))  # the training step
    stop.set()
    while q.get(timeout=_field.MAX_S) is not None:
        pass
    loader.join(10)


if __name__ == "__main__":
    main()
