# Look-alike: the loop thread calls executor.shutdown(wait=True) while the worker works 16 s
# (no need for the loop).
import asyncio, time
from concurrent.futures import ThreadPoolExecutor

ex = ThreadPoolExecutor(max_workers=1)

def job(loop):
    time.sleep(16)
    return 42

async def main():
    loop = asyncio.get_running_loop()
    loop.run_in_executor(ex, job, loop)
    print("ready", flush=True)
    ex.shutdown(wait=True)

asyncio.run(main())
print("done")
