# Control: the fix proposed in LightRAG#3860: track the creating pid and replace the executor in
# a child.
import os
from concurrent.futures import ThreadPoolExecutor

_EXECUTOR = None
_PID = None

def executor():
    global _EXECUTOR, _PID
    if _EXECUTOR is None or _PID != os.getpid():
        _EXECUTOR, _PID = ThreadPoolExecutor(max_workers=1), os.getpid()
    return _EXECUTOR

def infer(x):
    return x * 2

print("warm-up", executor().submit(infer, 1).result(), flush=True)
pid = os.fork()
if pid == 0:
    print("ready", flush=True)
    r = executor().submit(infer, 2).result()
    os._exit(0 if r == 4 else 1)
_, status = os.waitpid(pid, 0)
print("done", status)
