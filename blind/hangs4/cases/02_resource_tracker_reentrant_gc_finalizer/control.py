# Control: the same program on CPython 3.11.7, which has the fix of python/cpython#109593 (PR #109629:
# the lock is an RLock and a reentrant call from a finalizer is detected and skipped with a warning);
# the new lock is created and the program ends.
import gc
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
    resource_tracker.ResourceTracker._check_alive = check_alive_with_collection
    print("ready", flush=True)
    more = mp.Lock()                               # register -> ensure_running -> (gc) -> finalizer -> ...
    print("created", more)
