# Control: the fix proposed in aiomqtt#174: when called on the loop's own thread, do the work
# on the loop directly instead of blocking on a concurrent future.
import asyncio

async def register():
    return "registered"

def on_socket_register_write(loop):
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        print("ready", flush=True)
        return loop.create_task(register())
    fut = asyncio.run_coroutine_threadsafe(register(), loop)
    return fut.result()

async def main():
    loop = asyncio.get_running_loop()
    await asyncio.sleep(0.1)
    print(await on_socket_register_write(loop))

asyncio.run(main())
