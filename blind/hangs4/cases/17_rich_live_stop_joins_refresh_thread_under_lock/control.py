# Control: the same program on rich 9.8.2 (fix of Textualize/rich#927: the refresh thread is stopped and
# joined outside the lock), so the refresh thread gets the lock, sees it is done and exits. CPython 3.11.7.
import os
import sys

from rich.console import Console

from common import wait_blocked_untimed

console = Console(file=open(os.devnull, "w"), force_terminal=True)   # a terminal-like sink
status = console.status("loading shards...", refresh_per_second=20)
status.start()
live = status._live
with live._lock:
    wait_blocked_untimed(live._refresh_thread)
    os.write(1, b"ready\n")            # the real stdout (Live redirects sys.stdout)
status.stop()                          # 9.8.2: takes the lock after joining the refresh thread
print("done")
