# The CLI tool (child): starts its helper server in the background (the helper inherits the tool's
# stdout), prints its result and exits. argv: control fd for the helper, optional helper lifetime.
import subprocess
import sys

ctl = int(sys.argv[1])
extra = sys.argv[2:]
subprocess.Popen([sys.executable, "helper.py", str(ctl)] + extra, pass_fds=[ctl])
print("tool result: 42", flush=True)
