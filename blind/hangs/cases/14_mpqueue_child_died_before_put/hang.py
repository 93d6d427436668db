# avocado-framework/avocado#289/#290: the runner starts a test in a child process and waits for
# its early state on a multiprocessing.Queue; the child dies critically (here: SIGSEGV-like
# os._exit / kill) before put(), and the parent's get() waits forever.
import multiprocessing as mp, os, signal

def run_test(q):
    os.kill(os.getpid(), signal.SIGKILL)   # the test crashes the interpreter
    q.put({"status": "started"})

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=run_test, args=(q,))
    p.start()
    print("ready", flush=True)
    print("early state:", q.get())
    p.join()
