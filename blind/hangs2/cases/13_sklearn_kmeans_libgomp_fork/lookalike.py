# Look-alike: KMeans in the parent, a forked child that does not use OpenMP and works 16 s.
import multiprocessing as mp, time
import numpy as np
from sklearn.cluster import KMeans

def fit():
    X = np.random.RandomState(0).randint(0, 255, (800, 3)).astype(float)
    return KMeans(n_clusters=8, random_state=0, n_init=1).fit(X).inertia_

def child_job():
    time.sleep(16)
    print("child done", flush=True)

if __name__ == "__main__":
    print("parent", fit(), flush=True)
    p = mp.get_context("fork").Process(target=child_job)
    p.start()
    print("ready", flush=True)
    p.join()
    print("done", p.exitcode)
