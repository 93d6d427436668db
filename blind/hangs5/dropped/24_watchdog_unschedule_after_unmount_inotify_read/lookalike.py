# Look-alike: watchdog 2.1.6 (CPython 3.11.7), the same observer on the same tmpfs volume, not unmounted:
# the program waits for the next batch file, which arrives after 16 s, then unschedules normally.
from ingest import run

run(unmount_first=False, file_after=16)
