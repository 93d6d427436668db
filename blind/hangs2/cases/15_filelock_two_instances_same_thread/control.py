# Control: the fix suggested in #315: one lock object per file, shared by caller and helper (a
# FileLock instance is reentrant in its thread).
import os, tempfile
from filelock import FileLock

path = os.path.join(tempfile.gettempdir(), "bh2_15c.lock")
LOCK = FileLock(path)

def update_cache():
    with LOCK:
        pass

with LOCK:
    print("ready", flush=True)
    update_cache()
print("done")
