# Control: the fix given in tox-dev/filelock#171: the locked block runs only in the main module
# (an `if __name__ == "__main__":` guard), so spawned workers import the module without taking
# the lock.
import multiprocessing as mp, os, sys
from filelock import FileLock

def run(i):
    return f"got the lock in multi process [{i}]"

LOCK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tmp.lock")
if __name__ == "__main__":
    with FileLock(LOCK):
        with mp.get_context("spawn").Pool(2) as pool:
            print("ready", flush=True)
            print(pool.map(run, range(2)))
