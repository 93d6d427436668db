# Look-alike: the same consumer awaits get() on the stream queue; the producer is still fetching
# (16 s) before it sends the sentinel.
import asyncio

async def fetch_stream():
    queue = asyncio.Queue(maxsize=2)

    async def producer():
        for job in ("job-1", "job-2"):
            await queue.put(job)
        await asyncio.sleep(16)                 # a slow last page
        await queue.put(None)

    task = asyncio.create_task(producer())
    await asyncio.sleep(0.1)
    print("ready", flush=True)
    while True:
        item = await queue.get()
        if item is None:
            break
        print("got", item, flush=True)
    await task
    print("stream done")

asyncio.run(fetch_stream())
