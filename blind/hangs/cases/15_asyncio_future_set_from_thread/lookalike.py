# Look-alike: the loop waits in epoll_wait (no timer) for a future that a worker thread completes
# (thread-safely) after 16 s of work.
import asyncio, threading, time

def worker(fut, loop):
    time.sleep(16)
    loop.call_soon_threadsafe(fut.set_result, "rpc reply")

async def main():
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    threading.Thread(target=worker, args=(fut, loop)).start()
    print("ready", flush=True)
    print(await fut)

asyncio.run(main())
