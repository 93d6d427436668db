# Control: the same job on concurrent.futures.ProcessPoolExecutor, whose initializer failure breaks
# the pool (BrokenProcessPool) instead of respawning workers forever.
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

def init_worker():
    raise RuntimeError("cannot open the model file")

def score(x):
    return x * x

if __name__ == "__main__":
    with ProcessPoolExecutor(2, initializer=init_worker) as ex:
        print("ready", flush=True)
        try:
            print(list(ex.map(score, range(8))))
        except BrokenProcessPool as e:
            print("broken:", e)
