"""Shape: scikit-learn KMeans (Lloyd) on OpenMP threads (the libgomp scikit-learn ships), fitted
over and over: the OpenMP team spins and parks between parallel regions."""

from __future__ import annotations

import _field
import numpy as np
from sklearn.cluster import KMeans


def main() -> None:
    x = np.random.default_rng(10).standard_normal((60_000, 16))
    KMeans(n_clusters=8, n_init=1, random_state=0, max_iter=5).fit(x)
    _field.ready()
    seed = 1
    while not _field.over():
        KMeans(n_clusters=16, n_init=1, random_state=seed, max_iter=50).fit(x)
        seed += 1


if __name__ == "__main__":
    main()
