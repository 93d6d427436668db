# python/cpython#88628 (bpo-44462, "multiprocessing.get hangs if the pool is closed in the signal
# handler", open): the job's SIGTERM handler terminates its multiprocessing.Pool for a clean shutdown;
# the handler runs in the main thread while that thread waits in AsyncResult.get() without a timeout;
# terminate() kills the workers and stops the pool's threads but never completes the pending result, so
# after the handler returns get() waits forever. Here the batch system's SIGTERM comes 0.3 s after the
# job starts waiting. CPython 3.11.7 (fork).
import multiprocessing
import os
import signal
import threading

from work import crunch

if __name__ == "__main__":
    pool = multiprocessing.Pool(2)

    def on_sigterm(signum, frame):
        print("SIGTERM: shutting the pool down", flush=True)
        pool.terminate()

    signal.signal(signal.SIGTERM, on_sigterm)
    res = pool.apply_async(crunch, (5,))
    print("ready", flush=True)
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()   # the batch system
    print(res.get())
