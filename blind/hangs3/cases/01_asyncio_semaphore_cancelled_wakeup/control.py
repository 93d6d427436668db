# Control: the same program on a fixed CPython (gh-90155 fixed in 3.10.8/3.11.0): the cancelled
# waiter hands the wake-up on, and acquire() returns at once.
import asyncio


async def main():
    sem = asyncio.Semaphore(1)
    await sem.acquire()
    waiter = asyncio.ensure_future(sem.acquire())
    await asyncio.sleep(0)
    sem.release()
    waiter.cancel()
    try:
        await waiter
    except asyncio.CancelledError:
        pass
    print("value", sem._value, flush=True)
    print("ready", flush=True)
    await sem.acquire()
    print("done")


asyncio.new_event_loop().run_until_complete(main())
