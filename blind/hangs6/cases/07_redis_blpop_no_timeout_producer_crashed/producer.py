# The export job: pushes one "done" record per shard onto the results list. In the hang it crashes on its
# input before pushing anything; with a delay it works that many seconds first.
import sys
import time

import redis

port, mode = int(sys.argv[1]), sys.argv[2]
if mode == "crash":
    raise SystemExit("export: KeyError: 'shard_id' in manifest.json")
time.sleep(float(mode))
r = redis.Redis(port=port)
for i in range(3):
    r.rpush("results", f"shard-{i}")
