# Control: the same loaders synchronise on a Barrier served by a multiprocessing Manager (a
# threading.Barrier in the manager process: a killed client leaves no semaphore acknowledgement owed;
# its pending wait stays in the manager), so the barrier completes instead of hanging and everything
# ends. CPython 3.11.7.
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
    manager = mp.Manager()
    barrier = manager.Barrier(3)               # a threading.Barrier served by a manager process
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
