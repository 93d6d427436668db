# Look-alike: janus 1.1.0 on CPython 3.11.7, the same pipeline without the stale Event (no sync
# acknowledgement before); the consumer coroutine takes 16 s on batch-2, then join() returns.
import asyncio

from common import pipeline

asyncio.run(pipeline(stale=False, work_seconds=16))
