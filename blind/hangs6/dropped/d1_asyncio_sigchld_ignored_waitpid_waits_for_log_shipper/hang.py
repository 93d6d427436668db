# python/cpython#76296 (bpo-32115, "Ignored SIGCHLD causes asyncio.Process.wait to hang forever"): the process
# runs with SIGCHLD ignored (inherited from its host). asyncio's ThreadedChildWatcher waits for the step with
# waitpid(pid); with SIGCHLD ignored, children are reaped by the kernel and waitpid() blocks until ALL children
# have exited. The job's log shipper (another child) only exits when the job closes its stdin after the step:
# the watcher thread waits for the shipper, the shipper waits for the job. CPython 3.11.7.
from common import run

run("pass", ignore_sigchld=True)
