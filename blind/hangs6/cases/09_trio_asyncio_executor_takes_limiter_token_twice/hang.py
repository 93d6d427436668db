# python-trio/trio-asyncio#116 ("TrioExecutor acquires the capacity limiter too many times"; also #143):
# TrioExecutor.submit takes a token of its CapacityLimiter and then calls trio.to_thread.run_sync with the
# same limiter, which needs a second token. With max_workers=1 the only token is held by the same call:
# run_in_executor never starts its thread and the trio loop idles forever.
# trio-asyncio 0.14.0 (trio 0.24.0) on CPython 3.11.7.
from common import run

run(max_workers=1)
