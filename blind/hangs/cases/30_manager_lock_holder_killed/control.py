# Control: the fix of LightRAG#3413 in small: the lock is a holder record {owner pid} in a
# manager.dict, written under a short guard; an acquirer that finds the owner dead takes over.
import multiprocessing as mp, os, signal, time

def acquire(holders, guard, key):
    while True:
        with guard:
            owner = holders.get(key)
            alive = owner is not None
            if alive:
                try:
                    os.kill(owner, 0)
                    with open(f"/proc/{owner}/stat") as fh:
                        alive = fh.read().split(")")[-1].split()[0] != "Z"
                except ProcessLookupError:
                    alive = False
            if not alive:
                holders[key] = os.getpid()
                return
        time.sleep(0.05)

def worker(holders, guard, started):
    acquire(holders, guard, "entity")
    started.set()
    signal.pause()

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    mgr = ctx.Manager()
    holders, guard = mgr.dict(), mgr.Lock()
    started = ctx.Event()
    w = ctx.Process(target=worker, args=(holders, guard, started))
    w.start()
    started.wait(30)
    os.kill(w.pid, signal.SIGKILL)
    w.join()
    print("ready", flush=True)
    acquire(holders, guard, "entity")
    print("got the lock")
