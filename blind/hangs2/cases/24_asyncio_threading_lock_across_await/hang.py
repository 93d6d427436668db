# Azure/azure-sdk-for-python#11591 (AsyncBearerTokenCredentialPolicy): a threading.Lock held across
# an await; a second coroutine of the same event loop calls lock.acquire(), which blocks the loop's
# thread, so the first coroutine can never resume to release it.
import asyncio, threading

lock = threading.Lock()
token = None

async def fetch_token():
    await asyncio.sleep(0.5)          # network round trip
    return "tok"

async def get_token():
    global token
    with lock:                        # threading.Lock in a coroutine
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
