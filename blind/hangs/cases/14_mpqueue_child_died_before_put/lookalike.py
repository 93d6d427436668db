# Look-alike: the child is slow to start the test (16 s) and then reports; the parent waits in
# get() on the same kind of queue.
import multiprocessing as mp, time

def run_test(q):
    time.sleep(16)
    q.put({"status": "started"})

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=run_test, args=(q,))
    p.start()
    print("ready", flush=True)
    print("early state:", q.get())
    p.join()
