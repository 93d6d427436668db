# scikit-learn/scikit-learn#23823 (python/cpython#117839): KMeans (OpenMP, the GNU libgomp bundled in
# the scikit-learn wheel) fitted in the parent, then again in a forked multiprocessing child: the
# child's OpenMP parallel region waits for the team threads of the parent's pool, which fork did not
# copy. scikit-learn 1.3.2.
import multiprocessing as mp
import numpy as np
from sklearn.cluster import KMeans

def fit():
    X = np.random.RandomState(0).randint(0, 255, (800, 3)).astype(float)
    return KMeans(n_clusters=8, random_state=0, n_init=1).fit(X).inertia_

def child_job():
    print("child", fit(), flush=True)

if __name__ == "__main__":
    print("parent", fit(), flush=True)
    p = mp.get_context("fork").Process(target=child_job)
    p.start()
    print("ready", flush=True)
    p.join()
    print("done", p.exitcode)
