# tqdm/tqdm#1751 ("Fix TMonitor deadlock at interpreter shutdown": atexit TMonitor.exit joins the
# monitor thread, which is blocked in `with tqdm_cls.get_lock()` because the multiprocessing
# component of the write lock was left held by a forked child that died abnormally; see also
# tqdm#1500, #627). tqdm 4.66.5.
import multiprocessing as mp, os, signal, threading, time
from tqdm import tqdm

tqdm.monitor_interval = 1                  # the monitor wakes every second (default 10)

def child(started):
    lock = tqdm.get_lock()
    lock.acquire()                         # e.g. writing a bar line from a worker
    started.set()
    signal.pause()

if __name__ == "__main__":
    bar = tqdm(total=100, mininterval=30, miniters=10)
    bar.update(1)
    bar.close()                            # the bars are done; the monitor thread lives on
    ctx = mp.get_context("fork")
    started = ctx.Event()
    p = ctx.Process(target=child, args=(started,))
    p.start()
    started.wait(30)
    os.kill(p.pid, signal.SIGKILL)         # the worker dies holding the lock
    p.join()
    mon = tqdm.monitor
    for _ in range(100):                   # until the monitor sits in the lock's acquire
        try:
            with open(f"/proc/self/task/{mon.native_id}/syscall") as fh:
                fields = fh.read().split()
                if fields[0] == "202" and int(fields[4], 16) == 0:   # an untimed futex wait
                    break
        except OSError:
            pass
        time.sleep(0.05)
    print("\nready", flush=True)
    # the script ends; at exit tqdm joins its monitor thread
