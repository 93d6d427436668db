"""Shape: multiprocessing.Pool(2) over spawn, imap_unordered over many small numpy tasks: results
stream back through the pool's pipes all along (the commonest data-processing loop)."""

from __future__ import annotations

import multiprocessing as mp

import _field
import numpy as np


def task(seed: int) -> float:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((200, 200))
    return float(np.linalg.norm(x @ x.T))


def main() -> None:
    with mp.get_context("spawn").Pool(2) as pool:
        assert pool.apply(task, (0,)) > 0  # the workers are up
        _field.ready()
        seed = 0
        while not _field.over():  # rounds of 32: the pool's task feeder takes a whole iterable at once
            assert sum(pool.imap_unordered(task, range(seed, seed + 32), chunksize=4)) > 0
            seed += 32


if __name__ == "__main__":
    main()
