# python/cpython#88588 (bpo-44422, "threading.enumerate(): reentrant call during a GC collection hangs";
# fixed in 3.9.6/3.10 by making threading._active_limbo_lock an RLock): threading.enumerate() holds the
# non-reentrant _active_limbo_lock while it builds its list; a garbage collection triggered by that
# allocation runs a finalizer that itself calls threading.enumerate() (here a connection pool's __del__
# checking whether its reaper thread is still alive) and waits for the lock its own thread holds.
# CPython 3.8.18. The collection is made to fall there every time: the finalizable cycle is created with
# the collector paused, and the threshold is 1 when enumerate() allocates.
import gc
import threading


class ConnectionPool:
    def __init__(self):
        self.me = self                          # a reference cycle (pool <-> itself)

    def __del__(self):
        alive = [t.name for t in threading.enumerate() if t.name.startswith("pool-reaper")]
        print("pool finalized; reapers alive:", alive, flush=True)


threading.enumerate()                           # (the frame of enumerate() is now cached)
gc.disable()
ConnectionPool()                                # unreachable cycle with a finalizer
gc.set_threshold(1)
gc.enable()
print("ready", flush=True)
threads = threading.enumerate()                 # the GC runs inside, the finalizer re-enters
print("threads:", len(threads))
