# Look-alike: same barrier and workers; worker 2 is slow to set up (16 s) and then arrives, the
# others wait at the barrier and the main thread joins them.
import threading, time

N = 4
barrier = threading.Barrier(N)

def worker(i):
    if i == 2:
        time.sleep(16)
    barrier.wait()

threads = [threading.Thread(target=worker, args=(i,)) for i in range(N)]
for t in threads:
    t.start()
print("ready", flush=True)
for t in threads:
    t.join()
print("done")
