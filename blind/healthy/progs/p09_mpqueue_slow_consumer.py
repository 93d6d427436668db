# interpreter: blind
# shape: producer process -> bounded mp.Queue -> slow consumer process; the launcher joins both.
# The producer blocks on the full queue most of the time; the consumer sleeps per item (slow upload).
import multiprocessing as mp
import sys
import time

import numpy as np


def producer(q: "mp.Queue[object]", n: int) -> None:
    rng = np.random.default_rng(0)
    for i in range(n):
        q.put((i, rng.standard_normal((256, 256)).astype(np.float32)))
    q.put(None)


def consumer(q: "mp.Queue[object]", res: "mp.Queue[object]") -> None:
    total = 0.0
    count = 0
    while True:
        item = q.get()
        if item is None:
            break
        i, arr = item
        total += float(arr.sum())
        count += 1
        time.sleep(2.5 if i % 5 else 5.0)  # slow sink
    res.put((count, total))


def main() -> int:
    print("ready", flush=True)
    ctx = mp.get_context("spawn")
    q: "mp.Queue[object]" = ctx.Queue(maxsize=3)
    res: "mp.Queue[object]" = ctx.Queue()
    p = ctx.Process(target=producer, args=(q, 12))
    c = ctx.Process(target=consumer, args=(q, res))
    p.start()
    c.start()
    count, total = res.get(timeout=120)
    p.join(timeout=30)
    c.join(timeout=30)
    print(f"consumed {count}", flush=True)
    return 0 if count == 12 else 3


if __name__ == "__main__":
    sys.exit(main())
