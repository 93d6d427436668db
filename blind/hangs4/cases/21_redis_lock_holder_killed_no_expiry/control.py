# Control: the fix recommended in redis/redis-py#818 and sibson/redbeat#212: the lock is taken with a
# timeout (2 s), so the killed holder's key expires and the coordinator's acquire() succeeds.
# redis-py 5.0.8 on CPython 3.11.7, redis-server 7.0.15.
import os
import signal
import subprocess
import sys

import redis

from common import start_redis

server, port = start_redis()
worker = subprocess.Popen([sys.executable, "holder.py", str(port), "2", "3600"], stdout=subprocess.PIPE, text=True)
print(worker.stdout.readline().strip())
os.kill(worker.pid, signal.SIGKILL)              # OOM killer
worker.wait()
lock = redis.Redis(port=port).lock("lock:shard-7")
print("ready", flush=True)
lock.acquire(blocking=True)                       # the dead holder's key expires after 2 s
print("coordinator has the shard")
lock.release()
server.terminate()
server.wait()
