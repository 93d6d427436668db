# Control: the fix given in the thread: use fsspec's own IO loop (fsspec.asyn.get_loop(), run by its
# daemon thread).
import asyncio
import fsspec.asyn

print("yey", flush=True)
loop = fsspec.asyn.get_loop()
print("ready", flush=True)
fsspec.asyn.sync(loop, asyncio.sleep, delay=5)
print("yey")
