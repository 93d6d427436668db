# Look-alike: a SoftFileLock held by a live process that releases it after 16 s; the waiter polls
# (timeout=-1) and gets it.
import os, subprocess, sys, tempfile
from filelock import SoftFileLock

d = tempfile.mkdtemp()
path = os.path.join(d, "dataset.lock")
HOLDER = ("import sys, time; from filelock import SoftFileLock; "
          "l = SoftFileLock(sys.argv[1]); l.acquire(); print('held', flush=True); time.sleep(16); l.release()")
holder = subprocess.Popen([sys.executable, "-c", HOLDER, path], stdout=subprocess.PIPE)
assert holder.stdout.readline().strip() == b"held"
print("ready", flush=True)
with SoftFileLock(path, timeout=-1):
    print("got the lock")
holder.wait()
