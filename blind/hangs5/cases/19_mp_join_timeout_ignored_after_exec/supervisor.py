import multiprocessing
import os
import subprocess
import sys
import time


def start_worker(ctl_r, extra):
    os.set_inheritable(ctl_r, True)
    os.execv(sys.executable, [sys.executable, "server.py", str(ctl_r)] + extra)


def run(use_subprocess, extra=()):
    ctl_r, ctl_w = os.pipe()
    extra = list(extra)
    if use_subprocess:                     # the fix: a subprocess whose wait(timeout) honours the timeout
        worker = subprocess.Popen([sys.executable, "server.py", str(ctl_r)] + extra, pass_fds=[ctl_r])
    else:
        worker = multiprocessing.Process(target=start_worker, args=(ctl_r, extra))
        worker.start()
    os.close(ctl_r)
    print("ready", flush=True)
    t0 = time.time()
    try:                                   # give the warm-up 2 s, then ask the server to stop
        if use_subprocess:
            worker.wait(timeout=2)
        else:
            worker.join(timeout=2)
    except subprocess.TimeoutExpired:
        pass
    print("first wait returned after %.1f s" % (time.time() - t0), flush=True)
    try:
        os.write(ctl_w, b"stop\n")
    except BrokenPipeError:
        pass
    if use_subprocess:
        worker.wait()
    else:
        worker.join()
    print("worker stopped", flush=True)
