# Control: the fix of #11591: an asyncio.Lock (async with), which yields to the loop while waiting.
import asyncio, threading

lock = asyncio.Lock()
token = None

async def fetch_token():
    await asyncio.sleep(0.5)          # network round trip
    return "tok"

async def get_token():
    global token
    async with lock:
        if token is None:
            token = await fetch_token()
    return token

async def main():
    a = asyncio.create_task(get_token())
    await asyncio.sleep(0.1)          # a holds the lock and awaits
    print("ready", flush=True)
    b = asyncio.create_task(get_token())
    print(await asyncio.gather(a, b))

asyncio.run(main())
