# tox-dev/filelock#315: two FileLock instances on the same file acquired in the same thread: the
# second polls a flock() that the thread itself holds through the first instance's descriptor.
# filelock 3.13.1.
import os, tempfile
from filelock import FileLock

path = os.path.join(tempfile.gettempdir(), "bh2_15.lock")

def update_cache():
    with FileLock(path):        # inner helper takes "its" lock
        pass

with FileLock(path):            # the caller already holds the same file lock
    print("ready", flush=True)
    update_cache()
print("done")
