# Look-alike: the same dispatcher awaiting queue.join() (CPython 3.11.7); the handler is slow (each of
# the 10 events takes 1.6 s) and nothing fails, so join() returns after about 16 s.
import asyncio

from common import SENTINEL, consume


async def main():
    queue = asyncio.Queue()
    consumer = asyncio.create_task(consume(queue, slow=1.6))
    for event in range(10):
        queue.put_nowait(event)
    queue.put_nowait(SENTINEL)
    await asyncio.sleep(0.2)
    print("ready", flush=True)
    await queue.join()
    print("stream done")


asyncio.run(main())
