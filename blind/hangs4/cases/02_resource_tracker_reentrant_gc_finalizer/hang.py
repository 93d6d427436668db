# python/cpython#109593 (fixed by PR #109629, "Fix reentrancy issue in multiprocessing resource_tracker"):
# ResourceTracker.ensure_running() holds a non-reentrant threading.Lock; a garbage collection that
# happens while it is held can run the finalizer of an unreachable multiprocessing SemLock, whose cleanup
# calls resource_tracker.unregister() -> ensure_running() -> the same Lock, in the same thread.
# CPython 3.10.13 (fixed in 3.11.6/3.12.1). The collection is made to happen at that point every time by
# running gc.collect() at the start of _check_alive (as an allocation there would); the tracker process
# (a child) keeps running, idle on its pipe.
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
