# Look-alike (CPython 3.7.16): the worker thread's loop waits for a child that runs 16 s; the main
# thread runs its own loop (so the watcher's SIGCHLD is dispatched) while it waits for the worker.
import asyncio, threading

def worker():
    loop = asyncio.new_event_loop()
    async def run():
        proc = await asyncio.create_subprocess_exec("/bin/sleep", "16")
        print("ready", flush=True)
        return await proc.wait()
    print("exit code", loop.run_until_complete(run()))

main_loop = asyncio.get_event_loop()
asyncio.get_child_watcher()
t = threading.Thread(target=worker)
t.start()
main_loop.run_until_complete(main_loop.run_in_executor(None, t.join))
print("done")
