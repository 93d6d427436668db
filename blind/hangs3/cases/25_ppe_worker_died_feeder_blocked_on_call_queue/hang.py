# python/cpython#94777 (Deadlock in ProcessPoolExecutor, fixed by PR #94784): a worker dies while the
# call queue's feeder thread is blocked writing a large task into the call-queue pipe; the manager
# thread marks the pool broken and joins the feeder thread, which waits forever in write() (the
# parent still holds the pipe's read end, so no EPIPE); shutdown() joins the manager thread.
# CPython 3.10.13 (fixed in 3.11.5). Made deterministic: the worker dies only once the feeder thread
# is blocked in write().
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

FLAG = f"/tmp/ppe-94777-{os.getpid()}.flag"


def first_task(flag):
    while not os.path.exists(flag):          # busy with a long first task ...
        time.sleep(0.01)
    os.kill(os.getpid(), signal.SIGKILL)      # ... and then the worker dies (OOM killer, segfault)


def second_task(blob):
    return len(blob)


def in_write(tid):
    with open(f"/proc/self/task/{tid}/syscall") as f:
        return f.read().split()[0] == "1"


if __name__ == "__main__":
    ex = ProcessPoolExecutor(max_workers=1)
    f1 = ex.submit(first_task, FLAG)
    f2 = ex.submit(second_task, b"x" * (4 << 20))         # far larger than the pipe buffer
    feeder = None
    while feeder is None or not in_write(feeder.native_id):   # handshake through /proc
        feeder = next((t for t in threading.enumerate() if t.name == "QueueFeederThread"), None)
        time.sleep(0.01)
    open(FLAG, "w").close()
    for f in (f1, f2):
        try:
            f.result()
        except Exception as e:
            print(type(e).__name__, flush=True)
    os.unlink(FLAG)
    print("ready", flush=True)
    ex.shutdown(wait=True)                   # joins the manager thread, stuck joining the feeder
    print("done")
