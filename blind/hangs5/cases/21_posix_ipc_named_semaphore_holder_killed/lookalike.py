# Look-alike: the same named semaphore (posix_ipc 1.1.1, CPython 3.11.7); the worker holding it is alive
# and posts it after 16 s of work, then the waiting process acquires it.
from node import run

run('sem', 16, killed=False)
