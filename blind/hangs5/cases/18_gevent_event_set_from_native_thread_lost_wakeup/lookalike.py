# Look-alike: gevent 20.12.0 on CPython 3.9.18, the same service and waiting greenlet; the Event is set
# by a greenlet of the same hub 16 s later (a timer), which wakes the waiter.
from service import run

run("greenlet", 16)
