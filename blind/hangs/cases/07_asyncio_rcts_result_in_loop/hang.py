# empicano/aiomqtt#174 (also python/cpython#121075): run_coroutine_threadsafe(coro, loop).result()
# called from the loop's own thread: the thread blocks on the concurrent Future, and only the loop
# it is blocking would run the coroutine that completes it.
import asyncio

async def register():
    return "registered"

def on_socket_register_write(loop):
    fut = asyncio.run_coroutine_threadsafe(register(), loop)
    print("ready", flush=True)
    return fut.result()

async def main():
    loop = asyncio.get_running_loop()
    await asyncio.sleep(0.1)
    print(on_socket_register_write(loop))

asyncio.run(main())
