# Look-alike: the same driver loop (for line in proc.stdout, CPython 2.7.18) over a tool whose prompt
# has a 16 s default: the tool waits for an answer on its stdin for 16 s, then proceeds with the default
# and exits; the pipe reaches EOF and the driver sees all the lines.
from __future__ import print_function
import subprocess
import sys

tool = subprocess.Popen([sys.executable, "tool.py", "16"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
print("ready")
sys.stdout.flush()
for line in tool.stdout:                       # read-ahead: waits for 8 KB or EOF
    print("tool:", line.rstrip())
    if line.startswith("Apply these changes?"):
        try:
            tool.stdin.write("y\n")
            tool.stdin.flush()
        except IOError:                        # the tool has already gone on with its default
            pass
tool.wait()
print("tool exited", tool.returncode)
