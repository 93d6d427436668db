# Control: the fix suggested in ats-scrapers#69: enqueue the sentinel with a blocking put (run
# as a task so the consumer can drain meanwhile); the stream ends.
import asyncio, contextlib

async def fetch_stream():
    queue = asyncio.Queue(maxsize=2)

    async def producer():
        try:
            for job in ("job-1", "job-2"):
                await queue.put(job)
        finally:
            await queue.put(None)               # waits for room instead of dropping it

    task = asyncio.create_task(producer())
    print("ready", flush=True)
    while True:
        item = await queue.get()
        if item is None:
            break
        print("got", item, flush=True)
    await task
    print("stream done")

asyncio.run(fetch_stream())
