# Look-alike: the forked child creates its own executor and its job works 16 s; the parent waits.
import os, time
from concurrent.futures import ThreadPoolExecutor

_EXECUTOR = ThreadPoolExecutor(max_workers=1)

def infer(x):
    return x * 2

def slow_infer(x):
    time.sleep(16)
    return x * 2

print("warm-up", _EXECUTOR.submit(infer, 1).result(), flush=True)
pid = os.fork()
if pid == 0:
    ex = ThreadPoolExecutor(max_workers=1)
    print("ready", flush=True)
    r = ex.submit(slow_infer, 2).result()
    os._exit(0 if r == 4 else 1)
_, status = os.waitpid(pid, 0)
print("done", status)
