import os
import sys


def start_other_job(lock_path, *extra):
    """Start other_job.py detached from this process tree (double fork: it is re-parented and is not a
    descendant of this program, as a job started from another terminal would be); wait until it holds
    the lock."""
    r, w = os.pipe()
    launcher = os.getpid()
    pid = os.fork()
    if pid == 0:
        if os.fork() == 0:
            os.close(r)
            os.set_inheritable(w, True)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)            # holds none of this program's pipes
            os.execv(sys.executable, [sys.executable, "other_job.py", lock_path, str(w), str(launcher), *extra])
        os._exit(0)
    os.close(w)
    os.waitpid(pid, 0)
    line = os.read(r, 100)
    os.close(r)
    return line.strip()
