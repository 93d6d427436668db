# Look-alike: rich 9.8.1, the same Status and refresh thread; the main thread holds the Live's lock for
# 16 s (a slow render) while the refresh thread waits on it, then stops and joins the refresh thread
# outside the lock (the order of the 9.8.2 fix) before stopping the Status. CPython 3.11.7.
import os
import sys
import time

from rich.console import Console

from common import wait_blocked_untimed

console = Console(file=open(os.devnull, "w"), force_terminal=True)   # a terminal-like sink
status = console.status("loading shards...", refresh_per_second=20)
status.start()
live = status._live
with live._lock:
    wait_blocked_untimed(live._refresh_thread)
    os.write(1, b"ready\n")            # the real stdout (Live redirects sys.stdout)
    time.sleep(16)
refresher = live._refresh_thread
refresher.stop()
refresher.join()
live._refresh_thread = None
status.stop()
print("done")
