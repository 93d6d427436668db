"""Shape: the classic multiprocessing bug -- join() a child before get()-ing its queued result.

Why it matters: a cross-process deadlock. The child puts a 10 MB bytes object on a
multiprocessing.Queue; its feeder thread blocks in write(2) on the queue pipe (64 KiB
capacity) and, at exit, the child's main thread joins that feeder thread. The parent's
main thread is in p.join() (waitpid) and will never call q.get(), the only thing that
would drain the pipe. No lock cycle exists inside either process; the cycle is
parent-waits-child / child-waits-pipe-reader(parent).
A short-lived watcher thread in the parent prints `child <pid>` and `ready` once the child
has a thread in write(2) and the parent's main thread is in wait4 (bounded to 20 s).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import multiprocessing as mp
import os
import sys
import threading
import time
from multiprocessing.queues import Queue

WRITE, WAIT4 = 1, 61  # x86_64


def child(q: "Queue[bytes]") -> None:
    q.put(b"x" * (10 * 1024 * 1024))


def syscalls(pid: int) -> dict[int, str]:
    out: dict[int, str] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/syscall") as fh:
                out[int(tid)] = fh.read().split()[0]
        except (OSError, IndexError):
            pass
    return out


def main() -> None:
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=child, args=(q,), name="mp-child")
    p.start()
    child_pid = p.pid
    assert child_pid is not None  # set by start()
    main_tid = threading.get_native_id()

    def watcher() -> None:
        deadline = time.monotonic() + 20.0
        stable = 0
        while stable < 5:
            if time.monotonic() > deadline:
                print("child never blocked in write", file=sys.stderr, flush=True)
                os._exit(3)
            ok = str(WRITE) in syscalls(child_pid).values()
            ok = ok and syscalls(os.getpid()).get(main_tid) == str(WAIT4)
            stable = stable + 1 if ok else 0
            time.sleep(0.05)
        print(f"child {p.pid}", flush=True)
        print("ready", flush=True)

    threading.Thread(target=watcher, name="watcher", daemon=True).start()
    p.join()  # BUG: should q.get() first
    q.get()


if __name__ == "__main__":
    main()
