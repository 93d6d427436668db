# Control: the fix of asgiref#563: run the shutdown off the loop, so the loop stays free.
import asyncio
from concurrent.futures import ThreadPoolExecutor

ex = ThreadPoolExecutor(max_workers=1)

async def get_state():
    return 42

def job(loop):
    return asyncio.run_coroutine_threadsafe(get_state(), loop).result()

async def main():
    loop = asyncio.get_running_loop()
    loop.run_in_executor(ex, job, loop)
    print("ready", flush=True)
    await loop.run_in_executor(None, ex.shutdown)

asyncio.run(main())
print("done")
