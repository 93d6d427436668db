# Control: the same job on concurrent.futures.ProcessPoolExecutor, which detects a killed worker
# (bpo-9205) and raises BrokenProcessPool instead of hanging.
import os, signal, time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
import multiprocessing as mp

def f(x):
    return x * 2

if __name__ == "__main__":
    exe = ProcessPoolExecutor(1, mp_context=mp.get_context("fork"))
    assert exe.submit(f, 1).result(timeout=30) == 2
    victim = list(exe._processes.values())[0]
    time.sleep(0.3)
    os.kill(victim.pid, signal.SIGKILL)
    print("ready", flush=True)
    try:
        print(exe.submit(f, 2).result(timeout=50))
    except BrokenProcessPool as e:
        print("broken pool reported:", e)
    exe.shutdown()
