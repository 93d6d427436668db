# jaredrhod/backtalk#24: asyncio.run() never returns: at exit it joins the default executor, whose
# worker is blocked in queue.Queue.get() (run_in_executor(None, q.get)) that nobody will feed.
import asyncio, queue

typed_q: "queue.Queue[str]" = queue.Queue()

async def main():
    loop = asyncio.get_running_loop()
    fut = loop.run_in_executor(None, typed_q.get)
    try:
        await asyncio.wait_for(fut, 0.5)
    except asyncio.TimeoutError:
        pass  # cancels the asyncio future; the worker thread stays in get()
    print("ready", flush=True)

asyncio.run(main())  # CPython 3.11: shutdown_default_executor() has no timeout
print("done")
