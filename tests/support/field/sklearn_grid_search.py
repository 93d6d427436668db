"""Shape: scikit-learn GridSearchCV(n_jobs=2): the fits run in loky worker processes (joblib's
default backend), the launcher waits on them; each fit a few hundred ms to seconds."""

from __future__ import annotations

import _field
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV
from sklearn.svm import SVC


def main() -> None:
    x, y = make_classification(n_samples=1500, n_features=20, random_state=0)
    grid = {"C": [0.1, 1.0, 10.0], "gamma": ["scale", 0.01]}
    GridSearchCV(SVC(), {"C": [1.0]}, n_jobs=2, cv=2).fit(x[:200], y[:200])  # loky's workers up
    _field.ready()
    while not _field.over():
        GridSearchCV(SVC(), grid, n_jobs=2, cv=3).fit(x, y)


if __name__ == "__main__":
    main()
