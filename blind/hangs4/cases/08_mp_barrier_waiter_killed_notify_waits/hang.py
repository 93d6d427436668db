# python/cpython#123899 ("multiprocessing.Barrier does not return if waiting process is terminated"):
# multiprocessing's Condition.notify()/notify_all() releases each sleeper and then waits (no timeout) for
# every woken sleeper to acknowledge on a semaphore. A party killed while it waits at the Barrier (OOM
# killer, crash) never acknowledges: when the other parties' wait times out, the Barrier breaks itself
# with notify_all(), which waits forever for the dead party; the last party then waits for the
# Condition's lock. The parent joins the workers. CPython 3.11.7 (open).
import multiprocessing as mp
import os
import signal
import time

TIMEOUT = 2.0


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
    procs[0].start()
    arrived.get()                              # loader 0 is at the barrier
    time.sleep(0.2)
    os.kill(procs[0].pid, signal.SIGKILL)      # ... and is killed there (OOM killer)
    procs[0].join()
    for p in procs[1:]:
        p.start()
    for _ in procs[1:]:
        arrived.get()
    time.sleep(TIMEOUT + 0.5)                  # their wait has timed out; breaking the barrier hangs
    print("ready", flush=True)
    for p in procs[1:]:
        p.join()
    print("done")
