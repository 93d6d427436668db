# Look-alike: the helper waits for the same asyncio.Lock, held by another task that releases it
# after 16 s; then it completes.
import asyncio

mutex = asyncio.Lock()


async def other_holder(started):
    async with mutex:
        started.set()
        await asyncio.sleep(16)


async def child_coro():
    async with mutex:
        print("hello from child_coro")


async def parent_coro():
    started = asyncio.Event()
    t = asyncio.create_task(other_holder(started))
    await started.wait()
    print("hello from parent_coro", flush=True)
    print("ready", flush=True)
    await child_coro()
    await t


asyncio.run(parent_coro())
