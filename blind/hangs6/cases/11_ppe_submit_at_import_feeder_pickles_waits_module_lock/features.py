# A feature module that precomputes its lookup table at import time with a process pool (the pattern of
# python/cpython#155890): the submitted callable is defined in this very module.
from concurrent.futures import ProcessPoolExecutor


def bucket(x: int) -> int:
    return (x * 2654435761) % 97


print("ready", flush=True)
with ProcessPoolExecutor(max_workers=1) as pool:
    TABLE = list(pool.map(bucket, range(8)))
