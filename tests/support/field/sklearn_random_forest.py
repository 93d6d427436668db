"""Shape: scikit-learn RandomForestClassifier(n_jobs=2).fit over and over: joblib's threading
backend builds the trees in threads (Cython, the GIL released), the main thread waits on them."""

from __future__ import annotations

import _field
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier


def main() -> None:
    x, y = make_classification(n_samples=4000, n_features=30, random_state=0)
    RandomForestClassifier(n_estimators=4, n_jobs=2, random_state=0).fit(x, y)
    _field.ready()
    seed = 1
    while not _field.over():
        RandomForestClassifier(n_estimators=40, n_jobs=2, random_state=seed).fit(x, y)
        seed += 1


if __name__ == "__main__":
    main()
