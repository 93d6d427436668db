# Look-alike: the same progress thread and forked worker with the fork-safe writes; the worker's job takes
# 16 s (the parent waits in waitpid meanwhile), then it ends. CPython 3.11.7.
from common import run

run(fork_safe=True, worker_seconds=16.0)
