# Look-alike: the initializer is slow (loads a model for 16 s) but succeeds; map() waits meanwhile.
import multiprocessing as mp, time

def init_worker():
    time.sleep(16)

def score(x):
    return x * x

if __name__ == "__main__":
    with mp.Pool(2, initializer=init_worker) as pool:
        print("ready", flush=True)
        print(pool.map(score, range(8)))
