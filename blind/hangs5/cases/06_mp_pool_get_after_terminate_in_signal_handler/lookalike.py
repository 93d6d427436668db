# Look-alike: the same pool, SIGTERM handler and untimed get() (CPython 3.11.7, fork); no SIGTERM comes
# and the chunk takes 16 s, then get() returns and the job ends.
import multiprocessing
import signal

from work import crunch

if __name__ == "__main__":
    pool = multiprocessing.Pool(2)

    def on_sigterm(signum, frame):
        print("SIGTERM: shutting the pool down", flush=True)
        pool.terminate()

    signal.signal(signal.SIGTERM, on_sigterm)
    res = pool.apply_async(crunch, (16,))
    print("ready", flush=True)
    print(res.get())
    pool.close()
    pool.join()
