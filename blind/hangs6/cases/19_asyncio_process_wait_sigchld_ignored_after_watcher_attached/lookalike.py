# Look-alike: the same asyncio job on CPython 3.7.16 with SIGCHLD left alone; the step runs for 16 s and
# Process.wait() returns when it exits.
from common import run

run(ignore_sigchld=False, step="import time\nfor _ in range(10):\n    time.sleep(1.6)")
