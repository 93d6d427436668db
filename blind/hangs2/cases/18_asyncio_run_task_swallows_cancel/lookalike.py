# Look-alike: on cancellation the task drains a batch for 16 s (polling every 0.1 s), then ends.
import asyncio

async def unstoppable():
    try:
        while True:
            await asyncio.sleep(0.1)
    except asyncio.CancelledError:
        for _ in range(160):
            await asyncio.sleep(0.1)

async def main():
    asyncio.get_running_loop().create_task(unstoppable())
    await asyncio.sleep(0.2)
    print("ready", flush=True)

asyncio.run(main())
print("done")
