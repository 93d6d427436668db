# bpo-8844 ("Condition.wait() doesn't raise KeyboardInterrupt"; fixed in Python 3.2, where lock
# acquisitions can be interrupted by signals): in Python 2, threading.Event.wait() with no timeout blocks
# in an uninterruptible lock acquire, so the main thread never returns to the interpreter loop and a
# Python signal handler never runs. A daemon that waits for its SIGTERM handler to set an Event never
# sees the supervisor's SIGTERM; the supervisor waits for it to exit. CPython 2.7.18, two processes.
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
