# Quansight-Labs/free-threaded-compatibility#133 (numpy/numpy#28290's CI deadlock; the same in
# NVIDIA/DALI#6394): parallel test workers meet at a threading.Barrier; one worker raises before it
# reaches the barrier, the others wait for it forever, and the main thread joins them.
import threading

N = 4
barrier = threading.Barrier(N)

def worker(i):
    if i == 2:
        raise RuntimeError("setup failed in worker 2")   # never reaches the barrier
    barrier.wait()

threading.excepthook = lambda args: print("worker died:", args.exc_value, flush=True)
threads = [threading.Thread(target=worker, args=(i,)) for i in range(N)]
for t in threads:
    t.start()
print("ready", flush=True)
for t in threads:
    t.join()
print("done")
