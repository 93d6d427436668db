import os
import signal
import subprocess
import sys
import tempfile

import lockfile

CACHE = tempfile.mkdtemp(prefix="webcache-")
ENTRY = os.path.join(CACHE, "3f9a0c2e.cache")


def previous_run(seconds, killed):
    p = subprocess.Popen([sys.executable, "holder.py", ENTRY, str(seconds)], stdout=subprocess.PIPE, text=True)
    print(p.stdout.readline().strip(), flush=True)
    if killed:
        os.kill(p.pid, signal.SIGKILL)          # the user stopped the previous run (kill -9)
        p.wait()
    return p


def write_entry():
    with open(ENTRY, "wb") as f:
        f.write(b"cached response")
    print("cache entry written", flush=True)
