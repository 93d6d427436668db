# aio-libs/janus#715 ("Hang in AsyncQueue.join()": "an infinite loop with a complete blocking of the
# event loop and high CPU load"): SyncQueue.task_done() schedules _finished.set() with
# call_soon_threadsafe; a put() that follows clears the Event before the scheduled set() runs, so the
# Event ends up set while unfinished_tasks > 0. AsyncQueue.join() loops `while unfinished_tasks: await
# _finished.wait()` on an Event that is already set: it never suspends, so the coroutine that would
# finish batch-2 (on the same event loop) never runs, and one core spins at 100 % forever.
# janus 1.1.0 on CPython 3.11.7.
import asyncio

from common import pipeline

asyncio.run(pipeline(stale=True, work_seconds=0))
