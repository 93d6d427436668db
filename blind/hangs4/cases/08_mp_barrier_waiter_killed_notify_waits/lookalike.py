# Look-alike: the same multiprocessing.Barrier and loaders (CPython 3.11.7), no party is killed; loader 0
# reaches the barrier 16 s after the others (a slow shard), the barrier trips and everything ends.
import multiprocessing as mp
import os
import signal
import time

TIMEOUT = 30.0


def loader(rank, barrier, arrived):
    arrived.put(rank)
    try:
        barrier.wait(timeout=TIMEOUT)          # end of epoch: all loaders synchronise
        print(f"loader {rank}: epoch done", flush=True)
    except Exception as exc:
        print(f"loader {rank}: {type(exc).__name__}", flush=True)


if __name__ == "__main__":
    barrier = mp.Barrier(3)
    arrived = mp.Queue()
    procs = [mp.Process(target=loader, args=(r, barrier, arrived)) for r in range(3)]
    for p in procs[1:]:
        p.start()
    for _ in procs[1:]:
        arrived.get()                          # loaders 1 and 2 wait at the barrier
    print("ready", flush=True)
    time.sleep(16)                             # loader 0 has a slow shard: it arrives 16 s later
    procs[0].start()
    for p in procs:
        p.join()
    print("done")
