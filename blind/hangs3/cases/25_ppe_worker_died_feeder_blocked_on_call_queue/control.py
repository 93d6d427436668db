# Control: the same program on CPython 3.11.7 (fix of PR #94784: terminate_broken() closes the call
# queue's read end so the feeder's write fails); shutdown() returns.
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
