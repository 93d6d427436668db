"""Ending what a corpus tool started: every descendant of a program (also those in other sessions,
as a pty's shell), then its process group; by pid, never by name."""
import os
import signal


def kill_tree(pid):
    """SIGKILL pid's descendants (also those in other sessions, e.g. a pty's shell), then its group."""
    try:
        import psutil
        kids = [c.pid for c in psutil.Process(pid).children(recursive=True)]
    except Exception:
        kids = []
    for k in kids:
        try:
            os.kill(k, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
