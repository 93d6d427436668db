# Control: the fix of free-threaded-compatibility#133 / DALI#6394: a worker that fails aborts the
# barrier, so the others get BrokenBarrierError instead of waiting forever.
import threading

N = 4
barrier = threading.Barrier(N)

def worker(i):
    try:
        if i == 2:
            raise RuntimeError("setup failed in worker 2")
        barrier.wait()
    except threading.BrokenBarrierError:
        print("worker", i, "saw the broken barrier", flush=True)
    except BaseException:
        barrier.abort()
        raise

threading.excepthook = lambda args: print("worker died:", args.exc_value, flush=True)
threads = [threading.Thread(target=worker, args=(i,)) for i in range(N)]
for t in threads:
    t.start()
print("ready", flush=True)
for t in threads:
    t.join()
print("done")
