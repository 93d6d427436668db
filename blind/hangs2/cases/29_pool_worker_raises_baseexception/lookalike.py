# Look-alike: the pool's only task works 16 s, then returns; apply() waits meanwhile.
import multiprocessing as mp, time

def convert(path):
    time.sleep(16)
    return path + ".out"

if __name__ == "__main__":
    with mp.Pool(1) as pool:
        print("ready", flush=True)
        print(pool.apply(convert, ("a.bin",)))
