# Control: the fix the thread settles on: do not re-take the lock in the helper that runs under it
# (the helper's critical section runs after the parent released the lock).
import asyncio

mutex = asyncio.Lock()


async def child_coro():
    async with mutex:
        print("hello from child_coro")


async def parent_coro():
    async with mutex:
        print("hello from parent_coro", flush=True)
        print("ready", flush=True)
    await child_coro()


asyncio.run(parent_coro())
