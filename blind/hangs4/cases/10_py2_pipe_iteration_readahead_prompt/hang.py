# philchristensen/svn-color#4 ("'for' won't iterate until stdout is closed in Python2") and bpo-3907: in
# Python 2, iterating over a file object (for line in proc.stdout) uses a read-ahead buffer and does not
# hand out a line until that buffer (8 KB) is full or the pipe reaches EOF. A driver that answers an
# interactive tool's prompt as soon as the prompt line arrives never sees it: the tool waits for the
# answer on its stdin, the driver waits for more output. CPython 2.7.18 (subprocess, pipes).
from __future__ import print_function
import subprocess
import sys

tool = subprocess.Popen([sys.executable, "tool.py"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
print("ready")
sys.stdout.flush()
for line in tool.stdout:                       # read-ahead: waits for 8 KB or EOF
    print("tool:", line.rstrip())
    if line.startswith("Apply these changes?"):
        tool.stdin.write("y\n")
        tool.stdin.flush()
tool.wait()
print("tool exited", tool.returncode)
