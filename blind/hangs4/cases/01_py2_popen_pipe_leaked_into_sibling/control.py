# Control: the fix of confluentinc/ducktape#140: the long-running service is started with
# close_fds=True, so it does not inherit the write end of the short command's output pipe; reading
# that output ends at EOF, then the service's stdin is closed and it exits. CPython 2.7.18.
from __future__ import print_function
import os
import subprocess
import sys

SERVICE = "import sys\nfor line in sys.stdin:\n    pass\n"      # runs until its stdin reaches EOF

r, w = os.pipe()
lister = subprocess.Popen(["sh", "-c", "ls /proc | head -n 50"], stdout=w)
service = subprocess.Popen([sys.executable, "-c", SERVICE], stdin=subprocess.PIPE, close_fds=True)
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
