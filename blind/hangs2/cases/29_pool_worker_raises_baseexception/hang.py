# python/cpython#101081: a task raising a BaseException (here SystemExit from a library's sys.exit())
# kills its multiprocessing.Pool worker before the result is sent; the pool starts a replacement
# worker, the task is lost, and apply() waits forever.
import multiprocessing as mp, sys

def convert(path):
    sys.exit(f"cannot convert {path}")      # a CLI helper used as a library

if __name__ == "__main__":
    with mp.Pool(1) as pool:
        print("ready", flush=True)
        print(pool.apply(convert, ("a.bin",)))
