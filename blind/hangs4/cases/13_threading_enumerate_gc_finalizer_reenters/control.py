# Control: the same program on CPython 3.9.18, which has the fix of python/cpython#88588 (bpo-44422:
# _active_limbo_lock is an RLock), so the finalizer's nested enumerate() goes through. 
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
