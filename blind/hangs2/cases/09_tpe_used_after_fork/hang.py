# HKUDS/LightRAG#3860 (review): a process-wide ThreadPoolExecutor(max_workers=1) used before a
# fork; the forked child inherits the executor but not its worker thread, so its submission stays
# queued forever; the parent waits for the child.
import os
from concurrent.futures import ThreadPoolExecutor

_EXECUTOR = ThreadPoolExecutor(max_workers=1)

def infer(x):
    return x * 2

print("warm-up", _EXECUTOR.submit(infer, 1).result(), flush=True)
pid = os.fork()
if pid == 0:
    print("ready", flush=True)
    r = _EXECUTOR.submit(infer, 2).result()
    os._exit(0 if r == 4 else 1)
_, status = os.waitpid(pid, 0)
print("done", status)
