# Control: the handler does not leave the waiter behind: after terminate() it raises SystemExit, which
# interrupts get() in the main thread, so the job ends (the workaround for python/cpython#88628).
# CPython 3.11.7 (fork).
import multiprocessing
import os
import signal
import sys
import threading

from work import crunch

if __name__ == "__main__":
    pool = multiprocessing.Pool(2)

    def on_sigterm(signum, frame):
        print("SIGTERM: shutting the pool down", flush=True)
        pool.terminate()
        sys.exit("terminated by SIGTERM")

    signal.signal(signal.SIGTERM, on_sigterm)
    res = pool.apply_async(crunch, (5,))
    print("ready", flush=True)
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()   # the batch system
    print(res.get())
