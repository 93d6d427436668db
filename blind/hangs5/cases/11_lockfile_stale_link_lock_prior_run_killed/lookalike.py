# Look-alike: the same untimed acquire() (lockfile 0.12.2, CPython 3.11.7); the previous run is alive and
# still writing the entry; it releases the lock after 16 s and this run goes on.
import lockfile

from common import ENTRY, previous_run, write_entry

p = previous_run(16, killed=False)
lock = lockfile.LockFile(ENTRY)
print("ready", flush=True)
with lock:
    write_entry()
p.wait()
