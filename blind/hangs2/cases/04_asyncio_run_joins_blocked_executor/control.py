# Control: the fix: unblock the executor job (put a sentinel) before leaving main().
import asyncio, queue

typed_q: "queue.Queue[str]" = queue.Queue()

async def main():
    loop = asyncio.get_running_loop()
    fut = loop.run_in_executor(None, typed_q.get)
    try:
        await asyncio.wait_for(fut, 0.5)
    except asyncio.TimeoutError:
        pass
    print("ready", flush=True)
    typed_q.put("")  # wake the worker

asyncio.run(main())
print("done")
