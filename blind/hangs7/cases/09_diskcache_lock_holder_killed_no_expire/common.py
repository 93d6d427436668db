import multiprocessing as mp
import os
import signal
import tempfile
import time

import diskcache

CACHE_DIR = tempfile.mkdtemp(prefix="featcache-")


def refresh_features(hold: float, expire, die: bool) -> None:
    """The nightly refresh job: takes the cache's lock, rebuilds the features; the OOM killer may end it."""
    cache = diskcache.Cache(CACHE_DIR)
    lock = diskcache.Lock(cache, "refresh-features", expire=expire)
    lock.acquire()
    print("refresh job holds the lock", flush=True)
    if die:
        os.kill(os.getpid(), signal.SIGKILL)          # stands for the OOM killer while rebuilding
    time.sleep(hold)
    lock.release()


def run(hold: float, expire, die: bool) -> None:
    p = mp.get_context("fork").Process(target=refresh_features, args=(hold, expire, die), name="refresh")
    p.start()
    time.sleep(1.0)
    cache = diskcache.Cache(CACHE_DIR)
    lock = diskcache.Lock(cache, "refresh-features", expire=expire)
    print("ready", flush=True)
    with lock:                                        # the training job waits for the refresh to finish
        print("training job got the lock", flush=True)
    p.join()
    print("refresh exit code", p.exitcode, flush=True)
