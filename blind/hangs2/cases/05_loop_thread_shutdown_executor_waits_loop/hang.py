# home-assistant/core#45795 (and django/asgiref#563): the event loop's thread calls
# executor.shutdown(wait=True) while a worker of that executor waits in
# run_coroutine_threadsafe(...).result() for the loop.
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
    ex.shutdown(wait=True)  # blocks the loop thread: join the worker

asyncio.run(main())
print("done")
