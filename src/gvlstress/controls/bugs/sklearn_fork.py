"""scikit-learn's FAQ on freezes with fork: its wheels bundle GNU libgomp, which is not fork-safe
(GCC bug 60035). After KMeans ran an OpenMP team, a forked child's first parallel region waits
for pool threads the fork did not copy. Control: the same fit in a spawn child."""

import multiprocessing as mp
import os

import _ready
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs


def fit() -> None:
    # 4096 samples are 16 chunks of 256: Lloyd's prange gets a team of every core
    x, _ = make_blobs(n_samples=4096, centers=8, random_state=0)
    KMeans(n_clusters=8, n_init=1, random_state=0).fit(x)


def main() -> None:
    fit()  # the team's threads now exist, idle in libgomp's pool
    if _ready.control():
        p = mp.get_context("spawn").Process(target=fit)
        p.start()
        p.join(timeout=60)
        assert p.exitcode == 0, p.exitcode
        return
    pid = os.fork()
    if pid == 0:
        fit()
        os._exit(0)
    _ready.settled(lambda: _ready.parked(pid), "parked")
    _ready.announce(pid)
    _ready.forever()


if __name__ == "__main__":
    main()
