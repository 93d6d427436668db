# A previous run of the cache writer: takes the cache entry's lock file (lockfile.LockFile, a hard-link
# lock), says so, then writes the entry for SECONDS seconds and releases (argv: lock path, seconds).
import sys
import time

import lockfile

lock = lockfile.LockFile(sys.argv[1])
lock.acquire()
print("holding", flush=True)
time.sleep(float(sys.argv[2]))
lock.release()
