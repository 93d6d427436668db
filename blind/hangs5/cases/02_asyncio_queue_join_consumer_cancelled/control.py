# Control: the fix of openai/openai-agents-python#4199: the dispatcher awaits the consumer task (the
# sentinel is the last item, so the consumer's end implies every event was handled) instead of
# queue.join(); a dead consumer surfaces at once as its exception. CPython 3.11.7.
import asyncio

from common import SENTINEL, consume


async def main():
    queue = asyncio.Queue()
    consumer = asyncio.create_task(consume(queue, slow=0))
    for event in range(10):
        queue.put_nowait(event)
    queue.put_nowait(SENTINEL)
    await asyncio.sleep(0.2)
    print("ready", flush=True)
    try:
        await consumer
        print("stream done")
    except asyncio.CancelledError:
        print("consumer died: handler raised CancelledError")


asyncio.run(main())
