# A preprocessing worker: takes the shard's lock, reports it holds it, then works on the shard
# (argv: port, lock timeout in seconds or "none", seconds of work).
import sys
import time

import redis

port, timeout, work = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
lock = redis.Redis(port=port).lock("lock:shard-7", timeout=None if timeout == "none" else float(timeout))
lock.acquire(blocking=True)
print("holding", flush=True)
time.sleep(work)
lock.release()
