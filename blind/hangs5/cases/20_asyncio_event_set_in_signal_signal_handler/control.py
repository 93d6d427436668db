# Control: the fix given in python/cpython#122938: loop.add_signal_handler(), which wakes the loop through
# its signal wake-up fd; the service stops. CPython 3.12.1.
from service import run

run("add_signal_handler", 0.3, heartbeat=False)
