# Look-alike: same job (shipper child, asyncio step awaited with Process.wait()), default SIGCHLD; the step
# itself runs for 16 s, so the watcher thread waits in waitpid() for 16 s and the job ends. CPython 3.11.7.
from common import run

run("import time\ntime.sleep(16)", ignore_sigchld=False)
