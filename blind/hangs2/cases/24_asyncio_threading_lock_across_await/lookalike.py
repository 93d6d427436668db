# Look-alike: the second coroutine waits on a threading.Lock held for 16 s by a worker thread (the
# loop blocked meanwhile), which then releases it.
import asyncio, threading, time

lock = threading.Lock()
taken = threading.Event()

def refresher():
    with lock:
        taken.set()
        time.sleep(16)

async def get_token():
    with lock:
        return "tok"

async def main():
    threading.Thread(target=refresher).start()
    taken.wait()
    print("ready", flush=True)
    print(await get_token())

asyncio.run(main())
