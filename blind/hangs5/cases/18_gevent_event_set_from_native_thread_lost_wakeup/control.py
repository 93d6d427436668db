# Control: gevent 24.2.1, where setting an Event from another thread wakes the owning hub (cross-thread
# notification through the hub's thread-safe callback), the same program; it completes. CPython 3.11.7.
from service import run

run("native-thread", 0.5)
