# interpreter: blind
# shape: scikit-learn GridSearchCV with n_jobs=2 (joblib loky workers), then a joblib Parallel of slow "feature" jobs
import sys
import time

import numpy as np
from joblib import Parallel, delayed
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import GridSearchCV


def slow_feature(i: int) -> float:
    time.sleep(1.5 + (i % 3))  # a feature fetched from a slow service
    return float(np.sin(i))


def main() -> int:
    print("ready", flush=True)
    X, y = make_classification(n_samples=3000, n_features=30, random_state=0)
    gs = GridSearchCV(
        RandomForestClassifier(random_state=0),
        {"n_estimators": [40, 80], "max_depth": [6, 12]},
        cv=3,
        n_jobs=2,
    )
    gs.fit(X, y)
    print("grid best", gs.best_params_, flush=True)
    feats = Parallel(n_jobs=2)(delayed(slow_feature)(i) for i in range(10))
    print("features", len(feats), flush=True)
    t_end = time.monotonic() + 8
    while time.monotonic() < t_end:
        gs2 = GridSearchCV(RandomForestClassifier(random_state=1), {"n_estimators": [30]}, cv=2, n_jobs=2)
        gs2.fit(X, y)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
