# Control: the fix proposed in the issue: finish the background thread's imports before the pool forks
# (join the start-up import first); the worker's lazy import finds the module loaded. CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(wait_for_import_before_fork=True)
