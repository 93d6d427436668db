# Look-alike: the same blocked executor job, fed 16 s later by a timer thread.
import asyncio, queue, threading

typed_q: "queue.Queue[str]" = queue.Queue()

async def main():
    loop = asyncio.get_running_loop()
    fut = loop.run_in_executor(None, typed_q.get)
    try:
        await asyncio.wait_for(fut, 0.5)
    except asyncio.TimeoutError:
        pass
    threading.Timer(16, typed_q.put, ("quit",)).start()
    print("ready", flush=True)

asyncio.run(main())
print("done")
