# python/cpython#87472 (bpo-43306): an exception in multiprocessing.Pool's initializer does not stop
# anything: each worker dies at start, the pool's maintenance thread starts a new one (every 0.1 s),
# which dies again, and map() waits forever.
import multiprocessing as mp

def init_worker():
    raise RuntimeError("cannot open the model file")

def score(x):
    return x * x

if __name__ == "__main__":
    with mp.Pool(2, initializer=init_worker) as pool:
        print("ready", flush=True)
        print(pool.map(score, range(8)))
