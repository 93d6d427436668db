# A GPU-sharing worker: takes the node-wide named semaphore guarding the device's shared state, reports
# it, then works for SECONDS before posting it back (argv: semaphore name, seconds, "sem" or "lockf",
# lock file path for "lockf").
import fcntl
import sys
import time

import posix_ipc

name, seconds, kind = sys.argv[1], float(sys.argv[2]), sys.argv[3]
if kind == "sem":
    sem = posix_ipc.Semaphore(name)
    sem.acquire()
else:
    f = open(sys.argv[4], "a+")
    fcntl.lockf(f, fcntl.LOCK_EX)
print("holding", flush=True)
time.sleep(seconds)
if kind == "sem":
    sem.release()
