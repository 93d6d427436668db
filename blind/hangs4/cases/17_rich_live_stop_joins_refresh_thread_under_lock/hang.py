# Textualize/rich#927 ("Deadlock when exiting Status context", fixed in rich 9.8.2 by PR #930): Live.stop()
# takes the Live's lock, then joins the auto-refresh thread; a refresh thread that woke up just before
# waits for that lock to call refresh(), so stop() waits for the refresh thread and the refresh thread
# waits for stop(). The race is made to happen every time: the main thread holds the Live's (reentrant)
# lock, as a render would, until the refresh thread waits on it, then exits the Status context.
# rich 9.8.1 on CPython 3.11.7.
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
    status.stop()                      # -> Live.stop(): lock held, join the refresh thread
print("done")
