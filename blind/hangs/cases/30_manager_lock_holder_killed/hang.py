# HKUDS/LightRAG#3413 ("a keyed lock's underlying mutex is a manager.Lock() - an ownerless,
# liveness-blind mutex living in the Manager process. If the worker holding it is SIGKILLed, the
# Manager never notices: the lock stays locked forever and every other worker's acquire()
# deadlocks"); see also python/cpython#88304.
import multiprocessing as mp, os, signal

def worker(lock, started):
    lock.acquire()              # e.g. an entity lock held for a whole LLM extraction
    started.set()
    signal.pause()

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    mgr = ctx.Manager()
    lock = mgr.Lock()
    started = ctx.Event()
    w = ctx.Process(target=worker, args=(lock, started))
    w.start()
    started.wait(30)
    os.kill(w.pid, signal.SIGKILL)  # OOM killer
    w.join()
    print("ready", flush=True)
    lock.acquire()              # another worker wants the same key
    print("got the lock")
