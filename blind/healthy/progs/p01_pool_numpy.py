# interpreter: blind
# shape: multiprocessing.Pool (fork) mapping a numpy function over chunks; some tasks wait on "I/O" (sleep)
import multiprocessing as mp
import sys
import time

import numpy as np


def work(i: int) -> float:
    rng = np.random.default_rng(i)
    if i % 4 == 3:
        time.sleep(2.5)  # a task that waits on slow storage
        return 0.0
    a = rng.standard_normal((300, 300))
    t_end = time.monotonic() + 1.5
    acc = 0.0
    while time.monotonic() < t_end:
        acc += float(np.linalg.svd(a, compute_uv=False)[0])
    return acc


def main() -> int:
    print("ready", flush=True)
    deadline = time.monotonic() + 35
    done = 0
    with mp.get_context("fork").Pool(2) as pool:
        rnd = 0
        while time.monotonic() < deadline:
            res = pool.map(work, range(rnd * 8, rnd * 8 + 8), chunksize=1)
            done += len(res)
            rnd += 1
    print(f"done {done} tasks", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
