# Look-alike: the same monitor thread waits for tqdm's lock, held 16 s by a live forked worker
# that then releases it; the main thread, at exit, joins the monitor meanwhile.
import multiprocessing as mp, os, signal, threading, time
from tqdm import tqdm

tqdm.monitor_interval = 1

def child(started):
    lock = tqdm.get_lock()
    lock.acquire()
    started.set()
    time.sleep(16)
    lock.release()

if __name__ == "__main__":
    bar = tqdm(total=100, mininterval=30, miniters=10)
    bar.update(1)
    bar.close()                            # the bars are done; the monitor thread lives on
    ctx = mp.get_context("fork")
    started = ctx.Event()
    p = ctx.Process(target=child, args=(started,))
    p.start()
    started.wait(30)
    threading.Thread(target=p.join, daemon=True).start()   # reap it when it exits
    print("\nready", flush=True)
