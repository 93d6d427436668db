# Look-alike: the parent holds the FileLock and waits in pool.map; the spawned workers' tasks wait
# for the same lock; a timer thread in the parent releases it after 16 s and the tasks go on.
import multiprocessing as mp, os, sys, threading
from filelock import FileLock

LOCK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tmp.lock")

def run(i):
    with FileLock(LOCK):
        return f"got the lock in multi process [{i}]"

if __name__ == "__main__":
    lock = FileLock(LOCK)
    lock.acquire()
    threading.Timer(16, lock.release).start()
    with mp.get_context("spawn").Pool(2) as pool:
        print("ready", flush=True)
        print(pool.map(run, range(2)))
