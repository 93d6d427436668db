# tox-dev/filelock#171 (huggingface/datasets#4113): "Multiprocessing with FileLock fails": the
# script holds a FileLock around a multiprocessing Pool whose start method is spawn; each spawned
# worker re-runs the module's top level and blocks on the same lock (flock) held by the parent,
# which waits for the workers' results. filelock 3.8.0.
import multiprocessing as mp, os, sys
from filelock import FileLock

def run(i):
    return f"got the lock in multi process [{i}]"

LOCK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tmp.lock")
with FileLock(LOCK):
    with mp.get_context("spawn").Pool(2) as pool:
        if mp.current_process().name == "MainProcess":
            print("ready", flush=True)
        print(pool.map(run, range(2)))
