# kalil0321/ats-scrapers#69 (review: "Suppressing QueueFull when enqueuing the stream sentinel can
# drop end-of-stream signaling and hang fetch_stream() indefinitely"): the producer ends with
# put_nowait(None) under suppress(QueueFull); the queue was full, the sentinel is dropped, and the
# consumer awaits get() forever on an event loop with nothing left to wake it.
import asyncio, contextlib

async def fetch_stream():
    queue = asyncio.Queue(maxsize=2)

    async def producer():
        try:
            for job in ("job-1", "job-2"):
                await queue.put(job)
        finally:
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)          # dropped: the queue is full

    task = asyncio.create_task(producer())
    await task
    print("ready", flush=True)
    while True:
        item = await queue.get()
        if item is None:
            break
        print("got", item, flush=True)
    print("stream done")

asyncio.run(fetch_stream())
