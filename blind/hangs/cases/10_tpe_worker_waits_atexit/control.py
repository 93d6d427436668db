# Control: the very same program on Python 3.8, where the executor's workers are daemon threads
# and the atexit handler runs (and sets the event) before concurrent.futures joins them.
import atexit, threading
from concurrent.futures import ThreadPoolExecutor

stop = threading.Event()
started = threading.Event()
pool = ThreadPoolExecutor(max_workers=1)

def pump():
    started.set()
    stop.wait()

pool.submit(pump)
started.wait(10)
print("ready", flush=True)
atexit.register(stop.set)
print("main done")
