# Look-alike: the same lock without a timeout (redis-py 5.0.8, CPython 3.11.7, redis-server 7.0.15);
# the worker holding it is not killed and releases it after 16 s of work, so the coordinator's polling
# acquire() then succeeds.
import os
import signal
import subprocess
import sys

import redis

from common import start_redis

server, port = start_redis()
worker = subprocess.Popen([sys.executable, "holder.py", str(port), "none", "16"], stdout=subprocess.PIPE, text=True)
print(worker.stdout.readline().strip())
lock = redis.Redis(port=port).lock("lock:shard-7")
print("ready", flush=True)
lock.acquire(blocking=True)                       # the live holder releases after 16 s of work
worker.wait()
print("coordinator has the shard")
lock.release()
server.terminate()
server.wait()
