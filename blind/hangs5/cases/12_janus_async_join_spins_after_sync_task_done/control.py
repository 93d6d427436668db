# Control: janus 1.2.0 (the release that fixed aio-libs/janus#715), the same program: join() suspends,
# the consumer coroutine finishes batch-2 and join() returns. CPython 3.11.7.
import asyncio

from common import pipeline

asyncio.run(pipeline(stale=True, work_seconds=0))
