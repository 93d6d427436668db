# redis/redis-py#818 ("Lock.acquire() might cause clients could not acquire the lock forever") and
# sibson/redbeat#212 ("I kill -9 one process, another process will block ... you need delete the redis
# lock key"): a redis-py Lock taken without a timeout has no expiry; when its holder is killed, the key
# stays, and a blocking acquire() polls (sleep 0.1 s, SET NX) forever. Here a worker holding a shard's
# lock is killed by the OOM killer; the coordinator then wants the same lock. redis-py 5.0.8 on
# CPython 3.11.7; redis-server 7.0.15 (Debian) as a child process.
import os
import signal
import subprocess
import sys

import redis

from common import start_redis

server, port = start_redis()
worker = subprocess.Popen([sys.executable, "holder.py", str(port), "none", "3600"], stdout=subprocess.PIPE, text=True)
print(worker.stdout.readline().strip())
os.kill(worker.pid, signal.SIGKILL)              # OOM killer
worker.wait()
lock = redis.Redis(port=port).lock("lock:shard-7")
print("ready", flush=True)
lock.acquire(blocking=True)                       # polls a key nobody will ever delete
print("coordinator has the shard")
lock.release()
server.terminate()
server.wait()
