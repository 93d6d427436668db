"""scikit-learn's FAQ on freezes with fork: its wheels bundle GNU libgomp, which is not fork-safe
(GCC bug 60035). After KMeans ran an OpenMP team, a forked child's first parallel region waits
for pool threads the fork did not copy. Control: the same fit in a spawn child."""

import _ready
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs


def fit() -> None:
    # 4096 samples are 16 chunks of 256: Lloyd's prange gets a team of every core
    x, _ = make_blobs(n_samples=4096, centers=8, random_state=0)
    KMeans(n_clusters=8, n_init=1, random_state=0).fit(x)


if __name__ == "__main__":
    fit()  # the team's threads now exist, idle in libgomp's pool
    _ready.fork_or_spawn(fit)
