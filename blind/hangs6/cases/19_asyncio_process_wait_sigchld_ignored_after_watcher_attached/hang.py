# python/cpython#76296 (bpo-32115, "Ignored SIGCHLD causes asyncio.Process.wait to hang forever"; superseded
# by bpo-35621): asyncio's default child watcher on 3.7 (SafeChildWatcher) learns of child exits from SIGCHLD.
# After it attached, a daemonising helper sets SIGCHLD to SIG_IGN: the kernel reaps the step's child itself
# and discards the signal, so Process.wait() is never completed and the loop idles forever. CPython 3.7.16.
from common import run

run(ignore_sigchld=True)
