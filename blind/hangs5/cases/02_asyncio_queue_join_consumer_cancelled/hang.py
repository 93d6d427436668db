# openai/openai-agents-python#4199 ("stop waiting on Queue.join() when the event consumer can die"): a
# streaming dispatcher hands events to a background consumer task through an asyncio.Queue and then
# awaits queue.join(); the consumer wraps the user callback in `except Exception`, so a CancelledError
# (a BaseException) from the handler ends the consumer task, the outstanding task_done() calls never
# come, and join() waits forever with no exception and no timeout. CPython 3.11.7.
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
    await queue.join()                  # the consumer died at event 3
    print("stream done")


asyncio.run(main())
