# Look-alike: the worker loop is running and busy: the coroutine submitted with
# run_coroutine_threadsafe() takes 16 s; fut.result() waits, then returns.
import asyncio
import threading

loop = asyncio.new_event_loop()
worker = threading.Thread(target=loop.run_forever, name="bellows-worker-loop", daemon=True)
worker.start()


async def disconnect():
    await asyncio.sleep(16)
    return "ran"


fut = asyncio.run_coroutine_threadsafe(disconnect(), loop)
print("ready", flush=True)
print("got:", fut.result())
loop.call_soon_threadsafe(loop.stop)
worker.join()
loop.close()
