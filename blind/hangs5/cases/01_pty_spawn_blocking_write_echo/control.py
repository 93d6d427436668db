# Control: the same program on CPython 3.11.7, which has the fix of python/cpython#96522 (gh-96639):
# pty.spawn's copy loop makes the master non-blocking, buffers both directions and selects on
# writability, so it keeps draining the child's output while the input waits; the child reads its
# 50000 lines and exits.
import pty
import sys

from common import feed_stdin, quiet_stdout

feed_stdin(50000)
print("ready", flush=True)
quiet_stdout()
pty.spawn([sys.executable, "reader.py", "50000"])
