# Look-alike: the same shape on the same CPython, but the semaphore is held by another task that
# releases it after 16 s (no cancelled waiter): acquire() waits on a timer, then completes.
import asyncio


async def holder(sem):
    await asyncio.sleep(16)
    sem.release()


async def main():
    sem = asyncio.Semaphore(1)
    await sem.acquire()
    t = asyncio.ensure_future(holder(sem))
    await asyncio.sleep(0)
    print("value", sem._value, flush=True)
    print("ready", flush=True)
    await sem.acquire()
    await t
    print("done")


asyncio.get_event_loop().run_until_complete(main())
