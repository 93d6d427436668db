"""Shape: a healthy, CPU-busy numpy loop (300x300 matmul forever).

Why it matters: the opposite of a hang. The main thread is running (state R, CPU time
rising) mostly inside OpenBLAS, with the GIL released during the matmul; OpenBLAS may
also have its own worker threads that spin or park. Rules must call this busy/healthy.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import numpy as np


def main() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((300, 300))
    b = rng.standard_normal((300, 300))
    c = a @ b  # warm up: OpenBLAS threads exist after this
    print("ready", flush=True)
    n = 0
    while True:
        c = a @ b
        a = c / (np.abs(c).max() + 1.0)
        n += 1


if __name__ == "__main__":
    main()
