# Control: the fix of philchristensen/svn-color#4 (bpo-3907): the driver reads lines with
# iter(proc.stdout.readline, ""), which hands out each line as it arrives; the prompt is answered and
# the tool exits. CPython 2.7.18.
from __future__ import print_function
import subprocess
import sys

tool = subprocess.Popen([sys.executable, "tool.py"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
print("ready")
sys.stdout.flush()
for line in iter(tool.stdout.readline, ""):   # no read-ahead
    print("tool:", line.rstrip())
    if line.startswith("Apply these changes?"):
        tool.stdin.write("y\n")
        tool.stdin.flush()
tool.wait()
print("tool exited", tool.returncode)
