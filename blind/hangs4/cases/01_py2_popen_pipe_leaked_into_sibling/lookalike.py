# Look-alike: the same two children and the same leak (close_fds=False, CPython 2.7.18), but the
# service stops by itself after 16 s (it drains its stdin in a thread and exits at a deadline), which
# closes the inherited write end; the parent's read then ends and everything exits.
from __future__ import print_function
import os
import subprocess
import sys

SERVICE = ("import sys, threading, time, os\n"
           "def drain():\n    for line in sys.stdin:\n        pass\n"
           "t = threading.Thread(target=drain); t.daemon = True; t.start()\n"
           "time.sleep(16)\nos._exit(0)\n")

r, w = os.pipe()
lister = subprocess.Popen(["sh", "-c", "ls /proc | head -n 50"], stdout=w)
service = subprocess.Popen([sys.executable, "-c", SERVICE], stdin=subprocess.PIPE)    # close_fds=False
os.close(w)
print("ready")
sys.stdout.flush()
chunks = []
while True:
    data = os.read(r, 65536)      # EOF only when every write end is closed: the service holds one
    if not data:
        break
    chunks.append(data)
lister.wait()
service.stdin.close()
service.wait()
print("listed", len(b"".join(chunks).split()))
