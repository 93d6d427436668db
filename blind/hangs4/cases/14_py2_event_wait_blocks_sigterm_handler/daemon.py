# A worker daemon: reports that it is up, then waits on an Event that its SIGTERM handler sets (the
# supervisor's stop request); argv[1], if given: seconds after which it stops by itself (a timer sets it).
from __future__ import print_function
import signal
import sys
import threading

stop = threading.Event()


def on_sigterm(signum, frame):
    print("daemon: stop requested")
    sys.stdout.flush()
    stop.set()


signal.signal(signal.SIGTERM, on_sigterm)
if len(sys.argv) > 1:
    threading.Timer(float(sys.argv[1]), stop.set).start()
print("up")
sys.stdout.flush()
stop.wait()                       # Python 2: an untimed lock acquire that signals do not interrupt
print("daemon: stopped")
sys.stdout.flush()
