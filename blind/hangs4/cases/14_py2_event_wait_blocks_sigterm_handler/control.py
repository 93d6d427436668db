# Control: the same supervisor and daemon on CPython 3.11.7 (bpo-8844 fixed: the lock acquire in
# Event.wait() is interrupted, the SIGTERM handler runs and sets the Event), so the daemon stops.
from __future__ import print_function
import signal
import subprocess
import sys

daemon = subprocess.Popen([sys.executable, "daemon.py"], stdout=subprocess.PIPE)
print("daemon:", daemon.stdout.readline().strip())
daemon.send_signal(signal.SIGTERM)               # the supervisor stops the daemon
print("ready")
sys.stdout.flush()
daemon.wait()                                    # the handler that would set the Event never runs
print("daemon exited", daemon.returncode)
