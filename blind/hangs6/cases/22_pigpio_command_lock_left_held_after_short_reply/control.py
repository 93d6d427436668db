# Control: the fixed release pigpio 1.41 (the command runs under `with sl.l:`); the failed command releases
# the lock and the next command is answered. CPython 3.11.7.
from common import run_after_short_reply

run_after_short_reply()
