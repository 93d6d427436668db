# Look-alike: the same daemon and supervisor on CPython 2.7.18; the supervisor sends no signal and waits,
# the daemon's own timer thread sets the Event after 16 s and it exits.
from __future__ import print_function
import subprocess
import sys

daemon = subprocess.Popen([sys.executable, "daemon.py", "16"], stdout=subprocess.PIPE)
print("daemon:", daemon.stdout.readline().strip())
print("ready")
sys.stdout.flush()
daemon.wait()                                    # the daemon's own timer stops it after 16 s
print("daemon exited", daemon.returncode)
