# Look-alike: CPython 3.10.13, the same tracker and the same lock; another thread of this process holds
# the tracker's lock for 16 s (as a slow launch would), so creating the new multiprocessing lock waits on
# that threading.Lock in ensure_running(), then goes on when the holder releases it.
import gc
import threading
import time
import multiprocessing as mp
from multiprocessing import resource_tracker

_check_alive = resource_tracker.ResourceTracker._check_alive


def check_alive_with_collection(self):
    gc.collect()
    return _check_alive(self)


if __name__ == "__main__":
    mp.set_start_method("spawn")
    locks = [mp.Lock() for _ in range(4)]          # starts the resource tracker, registers 4 semaphores
    garbage = [locks.pop()]
    garbage.append(garbage)                        # an unreachable cycle holding a SemLock
    del garbage
    tracker = resource_tracker._resource_tracker
    held = threading.Event()

    def slow_holder():                             # a thread holds the tracker's lock for 16 s
        with tracker._lock:
            held.set()
            time.sleep(16)

    threading.Thread(target=slow_holder).start()
    held.wait()
    print("ready", flush=True)
    more = mp.Lock()                               # register -> ensure_running -> waits for the lock
    print("created", more)
