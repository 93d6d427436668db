# Control: watchdog 2.1.9 (contains the fix of gorakhargosh/watchdog#869: IN_IGNORED for the watched path
# ends the buffer thread), the same program; unschedule() returns. CPython 3.11.7.
from ingest import run

run(unmount_first=True)
