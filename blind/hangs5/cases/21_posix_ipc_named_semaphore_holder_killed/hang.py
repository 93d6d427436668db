# osvenskan/posix_ipc#53 ("posix semaphore does not release itself when the process holding it terminates
# unexpectedly, which might block other waiting processes indefinitely") and Project-HAMi/HAMi-core#248 ("If
# a process is killed while holding sem_postinit, the semaphore stays locked"): a worker holding the
# node-wide POSIX named semaphore is SIGKILLed; POSIX semaphores have no owner and no undo, so the next
# process's acquire() (no timeout) waits forever in sem_wait. posix_ipc 1.1.1 on CPython 3.11.7.
from node import run

run('sem', 3600, killed=True)
