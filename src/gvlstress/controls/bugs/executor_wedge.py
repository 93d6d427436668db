"""A ProcessPoolExecutor wedged by a worker SIGKILLed (as the OOM killer would) while it writes a
64 MiB result: the dead worker holds the result queue's lock with half a frame written, the
manager thread waits for the rest, the launcher waits forever (genvarloader #263's signature).
Control: the worker is killed while it computes, before any result byte: the pool breaks
(BrokenProcessPool), as CPython intends, and nothing hangs."""

import multiprocessing as mp
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import _ready

N = 3
WRITE = {"x86_64": "1", "aarch64": "64"}.get(os.uname().machine, "1")
SLEEPS = ("35", "230", "101", "115")  # nanosleep, clock_nanosleep (x86_64, aarch64)


def task(i: int) -> bytes:
    time.sleep(0.5)
    return bytes(64 << 20)


def state(pid: int) -> tuple[str, str]:
    """(syscall number, what its first argument's fd is) of a single-threaded worker."""
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            parts = fh.read().split()
        target = os.readlink(f"/proc/{pid}/fd/{int(parts[1], 16)}") if parts[0] == WRITE else ""
        return parts[0], target
    except (OSError, IndexError, ValueError):
        return "", ""


def zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def killer(ex: ProcessPoolExecutor, control: bool) -> None:
    end = time.monotonic() + 90
    while time.monotonic() < end:
        for pid in list(ex._processes):
            call, target = state(pid)
            if (control and call in SLEEPS) or (not control and target.startswith("pipe:")):
                os.kill(pid, signal.SIGKILL)
                if not control:
                    _ready.settled(lambda p=pid: zombie(p), "left unreaped", stable=20)
                    _ready.announce(os.getpid())
                return
        time.sleep(0.001)  # polling /proc for a worker in the moment that matters


def main() -> None:
    control = _ready.control()
    ex = ProcessPoolExecutor(N, mp_context=mp.get_context("spawn"))
    futures = [ex.submit(task, i) for i in range(N)]
    threading.Thread(target=killer, args=(ex, control), daemon=True).start()
    try:
        for f in futures:
            f.result()
    except BrokenProcessPool:
        if control:
            return
        raise


if __name__ == "__main__":
    main()
