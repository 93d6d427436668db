# Look-alike: the same signal.signal() handler setting the Event (CPython 3.12.1), but the service also runs
# a 1 s heartbeat task, so the loop wakes regularly; SIGTERM comes after 16 s and the service stops.
from service import run

run("signal.signal", 16, heartbeat=True)
