import asyncio

import janus


async def pipeline(stale, work_seconds):
    queue = janus.Queue()
    if stale:
        await queue.async_q.put("batch-1")
        queue.sync_q.get()                   # a sync worker handled batch-1 ...
        queue.sync_q.task_done()             # ... and acknowledged it: schedules _finished.set()
    await queue.async_q.put("batch-2")       # the next batch, before the loop ran that callback

    async def consumer():                    # batch-2 is handled by a coroutine on this loop
        item = await queue.async_q.get()
        await asyncio.sleep(work_seconds)
        queue.async_q.task_done()
        print("consumer finished", item, flush=True)

    asyncio.create_task(consumer())
    print("ready", flush=True)
    await queue.async_q.join()
    print("all batches done", flush=True)
    queue.close()
    await queue.wait_closed()
