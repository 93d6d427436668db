# Control: the fix of Project-HAMi/HAMi-core#248: the shared state is guarded by a POSIX record lock
# (fcntl.lockf) on a file, which the kernel releases when its owner dies; the next process gets it.
# posix_ipc 1.1.1 (semaphore still created) on CPython 3.11.7.
from node import run

run('lockf', 3600, killed=True)
