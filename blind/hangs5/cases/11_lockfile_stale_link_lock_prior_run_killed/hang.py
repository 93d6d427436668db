# psf/cachecontrol#101 ("I was bitten by a stale lockfile in the web cache directory after stopping a
# prior run: by default, `lockfile` waits indefinitely with no diagnostics"): FileCache takes a
# lockfile.LockFile (a hard-link lock) per entry; a run killed while writing leaves the lock file
# behind, and the next run's acquire() (timeout=None) polls every 0.1 s forever for a holder that no
# longer exists. lockfile 0.12.2 on CPython 3.11.7.
import lockfile

from common import ENTRY, previous_run, write_entry

previous_run(3600, killed=True)
lock = lockfile.LockFile(ENTRY)
print("ready", flush=True)
with lock:                                      # acquire(timeout=None)
    write_entry()
