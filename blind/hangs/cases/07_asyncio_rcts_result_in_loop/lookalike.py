# Look-alike: run_coroutine_threadsafe(...).result() from a *different* thread while the loop runs
# a coroutine that takes 16 s: the caller blocks on the concurrent future, the loop completes it.
import asyncio, threading

async def register():
    await asyncio.sleep(16)
    return "registered"

def main():
    loop = asyncio.new_event_loop()
    t = threading.Thread(target=loop.run_forever)
    t.start()
    fut = asyncio.run_coroutine_threadsafe(register(), loop)
    print("ready", flush=True)
    print(fut.result())
    loop.call_soon_threadsafe(loop.stop)
    t.join()
    loop.close()

main()
