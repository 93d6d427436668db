# Look-alike: the second lock (main thread) waits for a lock that another thread holds on its own
# handle for 16 s.
import os, tempfile, threading, time
import portalocker

path = os.path.join(tempfile.gettempdir(), "bh2_22l.lock")
held = threading.Event()

def writer():
    with open(path, "a") as fh:
        portalocker.lock(fh, portalocker.LOCK_EX)
        held.set()
        time.sleep(16)
        portalocker.unlock(fh)

t = threading.Thread(target=writer)
t.start()
held.wait()
print("ready", flush=True)
with open(path, "a") as fh:
    portalocker.lock(fh, portalocker.LOCK_EX)
    fh.write("x\n")
    portalocker.unlock(fh)
t.join()
print("done")
