# Control: the fix the aiohttp documentation asks for: use the response as a context manager (or
# release() it) so its connection goes back to the pool before the next request. aiohttp 3.9.5 on
# CPython 3.11.7.
import asyncio

from common import session, start_server


async def main(port):
    async with session() as s:
        async with s.get(f"http://127.0.0.1:{port}/thumb/1.png") as thumb:
            print("thumb status", thumb.status, flush=True)
        print("ready", flush=True)
        async with s.get(f"http://127.0.0.1:{port}/full/1.png") as full:
            print("full status", full.status, len(await full.read()))


server, port = start_server()
asyncio.run(main(port))
server.terminate()
