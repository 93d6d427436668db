# Look-alike: same executor and task, the task's stop event is set by a timer 16 s later; at exit
# the main thread joins the worker until then.
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
threading.Timer(16, stop.set).start()
print("main done")
