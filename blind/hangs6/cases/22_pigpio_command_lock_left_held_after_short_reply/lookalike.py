# Look-alike: pigpio 1.38; a poller thread's command holds the socket lock while the daemon takes 16 s to
# answer it; the main thread's command waits for the lock meanwhile, then both complete. CPython 3.11.7.
from common import run_with_slow_reply

run_with_slow_reply(16.0)
