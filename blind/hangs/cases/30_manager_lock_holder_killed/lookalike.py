# Look-alike: the same manager.Lock held by a live worker that releases it after 16 s; the parent
# waits in acquire() meanwhile.
import multiprocessing as mp, time

def worker(lock, started):
    lock.acquire()
    started.set()
    time.sleep(16)
    lock.release()

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    mgr = ctx.Manager()
    lock = mgr.Lock()
    started = ctx.Event()
    w = ctx.Process(target=worker, args=(lock, started))
    w.start()
    started.wait(30)
    print("ready", flush=True)
    lock.acquire()
    print("got the lock")
    w.join()
