# Look-alike: CPython 3.8.18, the same threading.enumerate() and its non-reentrant _active_limbo_lock,
# which another thread holds for 16 s; the main thread waits for it, then gets the list.
import gc
import threading
import time


class ConnectionPool:
    def __init__(self):
        self.me = self                          # a reference cycle (pool <-> itself)

    def __del__(self):
        alive = [t.name for t in threading.enumerate() if t.name.startswith("pool-reaper")]
        print("pool finalized; reapers alive:", alive, flush=True)


held = threading.Event()


def slow_registry_update():                     # another thread holds the registry lock for 16 s
    with threading._active_limbo_lock:
        held.set()
        time.sleep(16)


threading.Thread(target=slow_registry_update, name="registry").start()
held.wait()
print("ready", flush=True)
threads = threading.enumerate()                 # waits for the lock, then lists the threads
print("threads:", len(threads))
