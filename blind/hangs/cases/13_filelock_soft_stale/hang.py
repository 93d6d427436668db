# tox-dev/filelock#476 (and #115): a process holding a SoftFileLock is killed; the lock file stays
# and every other process waits for it forever (timeout=-1: poll, sleep, retry). filelock 3.12.4.
import os, signal, subprocess, sys, tempfile
from filelock import SoftFileLock

d = tempfile.mkdtemp()
path = os.path.join(d, "dataset.lock")
HOLDER = ("import sys, time; from filelock import SoftFileLock; "
          "l = SoftFileLock(sys.argv[1]); l.acquire(); print('held', flush=True); time.sleep(3600)")
holder = subprocess.Popen([sys.executable, "-c", HOLDER, path], stdout=subprocess.PIPE)
assert holder.stdout.readline().strip() == b"held"
os.kill(holder.pid, signal.SIGKILL)   # OOM killer / scheduler preemption
holder.wait()
print("ready", flush=True)
with SoftFileLock(path, timeout=-1):
    print("got the lock")
