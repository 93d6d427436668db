# Look-alike's module: also fills its table with a process pool at import time, but the callable lives in
# another, fully imported module (hashing.slow_bucket) and each of the 8 items takes 2 s in the worker.
from concurrent.futures import ProcessPoolExecutor

from hashing import slow_bucket

print("ready", flush=True)
with ProcessPoolExecutor(max_workers=1) as pool:
    TABLE = list(pool.map(slow_bucket, range(8)))
