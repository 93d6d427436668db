# Control: the same program on CPython 3.8.18 (bpo-35621 fixed: ThreadedChildWatcher waits for the
# child in its own thread).
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
