# Look-alike: the same session (limit=1, no total timeout; aiohttp 3.9.5, CPython 3.11.7); the first
# response is streamed by another task that reads it slowly (16 s) and releases it; the second request
# waits for the connection meanwhile, then goes through.
import asyncio

from common import session, start_server


async def slow_reader(resp):
    for _ in range(16):
        await resp.content.read(64 * 1024)
        await asyncio.sleep(1)
    await resp.read()
    resp.release()


async def main(port):
    async with session() as s:
        thumb = await s.get(f"http://127.0.0.1:{port}/thumb/1.png")
        print("thumb status", thumb.status, flush=True)
        reader = asyncio.create_task(slow_reader(thumb))
        print("ready", flush=True)
        full = await s.get(f"http://127.0.0.1:{port}/full/1.png")
        print("full status", full.status, len(await full.read()))
        await reader


server, port = start_server()
asyncio.run(main(port))
server.terminate()
