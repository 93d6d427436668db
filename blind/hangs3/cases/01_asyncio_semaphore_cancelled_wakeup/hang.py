# python/cpython#90155 (asyncio.Semaphore waiters deque doesn't work): on 3.9.x after bpo-45997, a waiter
# that is woken by release() and then cancelled before it runs leaves _wakeup_scheduled set; every
# later acquire() waits although the semaphore's value is 1. CPython 3.9.18.
import asyncio


async def main():
    sem = asyncio.Semaphore(1)
    await sem.acquire()                       # the holder
    waiter = asyncio.ensure_future(sem.acquire())
    await asyncio.sleep(0)                    # the waiter is queued
    sem.release()                             # wakes the waiter ...
    waiter.cancel()                           # ... which is cancelled before it runs
    try:
        await waiter
    except asyncio.CancelledError:
        pass
    print("value", sem._value, flush=True)
    print("ready", flush=True)
    await sem.acquire()                       # waits forever: nobody will release again
    print("done")


asyncio.get_event_loop().run_until_complete(main())
