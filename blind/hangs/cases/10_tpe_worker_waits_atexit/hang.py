# Opentrons/opentrons#12970 (cause: python/cpython#83993, 3.9 made ThreadPoolExecutor workers
# non-daemon and joins them before atexit handlers run): a library keeps a long-running task on a
# ThreadPoolExecutor and stops it from an atexit handler. At exit the main thread joins the
# worker, the worker waits for the stop event that only the atexit handler (never reached) sets.
import atexit, threading
from concurrent.futures import ThreadPoolExecutor

stop = threading.Event()
started = threading.Event()
pool = ThreadPoolExecutor(max_workers=1)

def pump():
    started.set()
    stop.wait()  # until the library is closed

pool.submit(pump)
started.wait(10)
print("ready", flush=True)
atexit.register(stop.set)  # "close at exit"
print("main done")
