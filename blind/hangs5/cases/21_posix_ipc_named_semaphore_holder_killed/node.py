import fcntl
import os
import signal
import subprocess
import sys
import tempfile

import posix_ipc


def run(kind, holder_seconds, killed):
    name = f"/gpu-shared-{os.getpid()}"
    sem = posix_ipc.Semaphore(name, posix_ipc.O_CREX, initial_value=1)
    lockpath = os.path.join(tempfile.mkdtemp(prefix="gpu-"), "state.lock")
    holder = subprocess.Popen([sys.executable, "holder.py", name, str(holder_seconds), kind, lockpath],
                              stdout=subprocess.PIPE, text=True)
    print(holder.stdout.readline().strip(), flush=True)
    sem.unlink()                                     # both processes have it open; no name left behind
    if killed:
        os.kill(holder.pid, signal.SIGKILL)          # the OOM killer takes the worker
        holder.wait()
    print("ready", flush=True)
    if kind == "sem":
        sem.acquire()                                # no timeout
    else:
        f = open(lockpath, "a+")
        fcntl.lockf(f, fcntl.LOCK_EX)                # released by the kernel when its owner dies
    print("device state acquired", flush=True)
    holder.wait()
