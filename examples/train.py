"""A toy training job for the README's tour of `watch`: steps that print a loss, each batch
prepared by two loader threads. With ``--hang``, step 3's two threads take two locks in
opposite orders (a handshake makes it certain, not a race) and the job stops for good, with
every thread asleep: what ``gvlstress watch`` is for.

    gvlstress watch --stall 5 --on-hang kill -- python examples/train.py --hang
"""

# ruff: noqa: T201  (printing is how these examples talk to the tour)

from __future__ import annotations

import argparse
import math
import threading

STEPS = 8


def prepare(step: int, first: threading.Lock, second: threading.Lock, both: threading.Barrier | None) -> None:
    """One loader thread's share of a batch (under two locks: a cache and its index)."""
    with first:
        if both is not None:
            both.wait()  # each thread holds its first lock before either takes its second
        with second:
            sum(math.sqrt(i) for i in range(200_000 + step))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hang", action="store_true", help="deadlock the loader threads at step 3")
    args = ap.parse_args()
    cache, index = threading.Lock(), threading.Lock()
    for step in range(1, STEPS + 1):
        both = threading.Barrier(2) if args.hang and step == 3 else None
        threads = [
            threading.Thread(target=prepare, args=(step, cache, index, both)),
            threading.Thread(
                target=prepare, args=(step, index, cache, both) if both else (step, cache, index, None)
            ),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(f"step {step}: loss {1 / step:.3f}", flush=True)


if __name__ == "__main__":
    main()
