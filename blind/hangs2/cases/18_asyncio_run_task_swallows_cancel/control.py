# Control: the task lets the cancellation propagate (cleanup, then re-raise).
import asyncio

async def unstoppable():
    try:
        while True:
            await asyncio.sleep(0.1)
    except asyncio.CancelledError:
        await asyncio.sleep(0.1)    # cleanup
        raise

async def main():
    asyncio.get_running_loop().create_task(unstoppable())
    await asyncio.sleep(0.2)
    print("ready", flush=True)

asyncio.run(main())
print("done")
