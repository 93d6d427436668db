# cjrh/aiorun#77 (same shape with asyncio.run, cf. mosquito/aio-pika#191): at shutdown the runner
# cancels the pending tasks and waits for them; one task catches CancelledError and goes on polling
# forever, so the shutdown never ends (the loop keeps ticking every 0.1 s).
import asyncio

async def unstoppable():
    try:
        while True:
            await asyncio.sleep(0.1)
    except asyncio.CancelledError:
        while True:                 # "finish the current batch" that never finishes
            await asyncio.sleep(0.1)

async def main():
    asyncio.get_running_loop().create_task(unstoppable())
    await asyncio.sleep(0.2)
    print("ready", flush=True)      # main returns: asyncio.run cancels the task and waits for it

asyncio.run(main())
print("done")
