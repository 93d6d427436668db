# bpo-35621 (python/cpython#79802): on CPython 3.7 asyncio subprocesses need the child watcher,
# which is attached to the main thread's loop; an event loop run in a worker thread waits in
# proc.wait() for a SIGCHLD that only the (not running) main loop would dispatch, while the main
# thread joins the worker.
import asyncio, threading

def worker():
    loop = asyncio.new_event_loop()
    async def run():
        proc = await asyncio.create_subprocess_exec("/bin/sleep", "0.3")
        print("ready", flush=True)
        return await proc.wait()
    print("exit code", loop.run_until_complete(run()))

main_loop = asyncio.get_event_loop()
asyncio.get_child_watcher()  # as the 3.7 docs require: instantiate the watcher in the main thread
t = threading.Thread(target=worker)
t.start()
t.join()
print("done")
