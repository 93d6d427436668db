import fcntl
import multiprocessing as mp
import os
import tempfile
import time

LOCKDIR = tempfile.mkdtemp(prefix="locks-")


def lock(name: str):
    f = open(os.path.join(LOCKDIR, name + ".lock"), "w")
    fcntl.flock(f, fcntl.LOCK_EX)                     # blocking, no timeout
    return f


def job(first: str, second: str | None, have_first, go, hold: float) -> None:
    a = lock(first)
    have_first.set()
    go.wait(10)
    time.sleep(hold)                                  # works under the first lock
    if second is not None:
        b = lock(second)
        print(f"{mp.current_process().name}: holds {first} and {second}", flush=True)
        b.close()
    a.close()


def run(order_b: tuple[str, str | None], hold_b: float = 0.0) -> None:
    """Job A (session sync) takes the session lock, then the config lock; job B (config reload) takes the
    locks in order_b."""
    ctx = mp.get_context("fork")
    ea, eb, go = ctx.Event(), ctx.Event(), ctx.Event()
    a = ctx.Process(target=job, args=("session", "config", ea, go, 0.0), name="session-sync")
    b = ctx.Process(target=job, args=(order_b[0], order_b[1], eb, go, hold_b), name="config-reload")
    a.start()
    ea.wait(10)
    b.start()
    if order_b[0] != "session":
        eb.wait(10)                                   # B holds its first lock too
    go.set()
    time.sleep(0.3)
    print("ready", flush=True)
    a.join()
    b.join()
    print("exit codes", a.exitcode, b.exitcode, flush=True)
