# Control: the fix of avocado#290: wait for the early state while checking that the child is
# still alive, and report its death instead of waiting forever.
import multiprocessing as mp, os, queue, signal

def run_test(q):
    os.kill(os.getpid(), signal.SIGKILL)
    q.put({"status": "started"})

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=run_test, args=(q,))
    p.start()
    print("ready", flush=True)
    while True:
        try:
            print("early state:", q.get(timeout=0.1)); break
        except queue.Empty:
            if not p.is_alive():
                print("test process died with", p.exitcode); break
    p.join()
