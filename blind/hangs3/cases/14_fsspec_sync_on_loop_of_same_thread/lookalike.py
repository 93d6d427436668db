# Look-alike: sync() on fsspec's IO loop with a coroutine that takes 16 s; the caller polls the same
# way, then completes.
import asyncio
import fsspec.asyn

print("yey", flush=True)
loop = fsspec.asyn.get_loop()
print("ready", flush=True)
fsspec.asyn.sync(loop, asyncio.sleep, delay=16)
print("yey")
