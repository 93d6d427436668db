import asyncio

SENTINEL = object()


async def on_event(event, slow):
    """The user's stream handler: forwards an event to a sink; the sink's pending write was cancelled
    when its connection was recycled, so awaiting it raises CancelledError (a BaseException)."""
    if slow:
        await asyncio.sleep(slow)
        return
    if event == 3:
        write = asyncio.get_running_loop().create_future()
        write.cancel()
        await write


async def consume(queue, slow):
    while True:
        event = await queue.get()
        if event is SENTINEL:
            queue.task_done()
            return
        try:
            await on_event(event, slow)
        except Exception as exc:        # ordinary handler errors are logged and swallowed
            print("handler error:", exc, flush=True)
        queue.task_done()
