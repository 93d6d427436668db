"""FAISS (the faiss-cpu wheel bundles GNU libgomp) searched in the parent, then a forked child
searches: the child's parallel region waits at the team barrier for threads fork() did not copy
(https://github.com/facebookresearch/faiss/issues/5206, "avoided when forcing single-threaded
execution with OMP_NUM_THREADS=1"). With libgomp's default wait policy the child parks in a
futex after ~300k spins; with OMP_WAIT_POLICY=ACTIVE (a common HPC and latency setting) the spin
count is 30 billion (https://gcc.gnu.org/onlinedocs/libgomp/GOMP_005fSPINCOUNT.html), so the
child's only thread spins in the barrier for minutes.
Control: the issue's workaround, OMP_NUM_THREADS=1 (no team, nothing to wait for)."""

from __future__ import annotations

import os
import warnings

import _ready

if _ready.control():
    os.environ["OMP_NUM_THREADS"] = "1"
else:
    os.environ.setdefault("OMP_WAIT_POLICY", "ACTIVE")  # before libgomp loads: it reads it once

import faiss  # type: ignore[import-not-found,import-untyped,unused-ignore]
import numpy as np


def main() -> None:
    warnings.simplefilter("ignore", DeprecationWarning)  # 3.12: "multi-threaded, use of fork()..."
    d = 64
    xb = np.random.default_rng(0).random((20000, d), dtype=np.float32)
    faiss.normalize_L2(xb)
    index = faiss.index_factory(d, "SQfp16,IDMap", faiss.METRIC_INNER_PRODUCT)
    index.train(xb)
    index.add_with_ids(xb, np.arange(len(xb)))
    q = xb[:200]
    for _ in range(2):
        index.search(q, 10)  # the OpenMP team's threads now exist (unless OMP_NUM_THREADS=1)
    pid = os.fork()
    if pid == 0:
        _, ids = index.search(q, 10)  # spins at the barrier
        os._exit(0 if (ids[:, 0] == np.arange(200)).all() else 1)
    _ready.reap_or_announce_spin(pid)


if __name__ == "__main__":
    main()
