# confluentinc/ducktape#140 ("Ensure non-standard file descriptors closed in Popen"): on Python 2,
# subprocess.Popen has close_fds=False by default and os.pipe() descriptors are inheritable, so a
# long-running child started while this process still holds the write end of a short-lived command's
# output pipe inherits that write end. The short command exits, but reading its output never sees EOF:
# the long-running sibling holds the pipe open. The sibling is a service that runs until its stdin (fed
# by this parent) is closed, which the parent does only after it has read the short command's output.
# CPython 2.7.18 (close_fds=True by default since 3.2, descriptors non-inheritable since 3.4).
from __future__ import print_function
import os
import subprocess
import sys

SERVICE = "import sys\nfor line in sys.stdin:\n    pass\n"      # runs until its stdin reaches EOF

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
