# aio-libs/aiohttp#2217 ("Client deadlocks when ... the program fetches the response but not its
# content ... the call to session.get() deadlocks") and aio-libs/aiohttp#1623 (requests beyond the
# connector's limit "simply never get made"): the first response is neither read nor released, so it
# keeps the connector's only connection; the next session.get() waits for a free connection that only
# the waiting task itself could give back. With no total timeout it waits forever. aiohttp 3.9.5 on
# CPython 3.11.7; the HTTP service runs in a child process.
import asyncio

from common import session, start_server


async def main(port):
    async with session() as s:
        thumb = await s.get(f"http://127.0.0.1:{port}/thumb/1.png")
        print("thumb status", thumb.status, flush=True)        # body not read, response not released
        print("ready", flush=True)
        full = await s.get(f"http://127.0.0.1:{port}/full/1.png")
        print("full status", full.status, len(await full.read()))


server, port = start_server()
asyncio.run(main(port))
server.terminate()
