# Control: CPython 3.8.18, whose default watcher (ThreadedChildWatcher, bpo-35621) waits with waitpid() in a
# thread instead of relying on SIGCHLD; wait() returns (255, with a warning that the status was lost).
from common import run

run(ignore_sigchld=True)
