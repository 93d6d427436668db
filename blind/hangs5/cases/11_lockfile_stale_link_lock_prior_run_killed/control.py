# Control: the fix of psf/cachecontrol#101: acquire with a timeout (lock_timeout); on LockTimeout the
# stale lock of the dead run is broken and the entry written. lockfile 0.12.2 on CPython 3.11.7.
import lockfile

from common import ENTRY, previous_run, write_entry

previous_run(3600, killed=True)
lock = lockfile.LockFile(ENTRY)
print("ready", flush=True)
try:
    lock.acquire(timeout=2)
except lockfile.LockTimeout:
    print("lock timed out: breaking the stale lock", flush=True)
    lock.break_lock()
    lock.acquire(timeout=2)
write_entry()
lock.release()
