# python/asyncio#439 (Reentrant locks in asyncio): asyncio.Lock is not reentrant; a task that holds
# it and awaits a helper that takes the same lock waits for itself. CPython 3.11.7.
import asyncio

mutex = asyncio.Lock()


async def child_coro():
    async with mutex:                 # the task already holds mutex: waits forever
        print("hello from child_coro")


async def parent_coro():
    async with mutex:
        print("hello from parent_coro", flush=True)
        print("ready", flush=True)
        await child_coro()


asyncio.run(parent_coro())
