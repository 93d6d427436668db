# Look-alike: the second FileLock (main thread) waits for a lock file held by another thread, which
# releases it after 16 s.
import os, tempfile, threading, time
from filelock import FileLock

path = os.path.join(tempfile.gettempdir(), "bh2_15l.lock")
held = threading.Event()

def holder():
    with FileLock(path):
        held.set()
        time.sleep(16)

t = threading.Thread(target=holder)
t.start()
held.wait()
print("ready", flush=True)
with FileLock(path):
    pass
t.join()
print("done")
