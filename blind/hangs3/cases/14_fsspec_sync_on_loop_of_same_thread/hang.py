# fsspec/filesystem_spec#981 (Asyncio.get_event_loop does not work with fsspec.asyn.sync): sync() is
# given the calling thread's own (not running) event loop; it schedules the coroutine on that loop and
# waits (polling an Event every second) for a loop that only the waiting thread could run.
# fsspec 2022.5.0 on CPython 3.10.13.
import asyncio
import fsspec.asyn

print("yey", flush=True)
loop = asyncio.get_event_loop()
print("ready", flush=True)
fsspec.asyn.sync(loop, asyncio.sleep, delay=5)
print("yey")
