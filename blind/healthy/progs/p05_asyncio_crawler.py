# interpreter: blind
# shape: asyncio crawler (aiohttp client) against a local aiohttp server in another process whose pages are slow
import asyncio
import os
import random
import socket
import subprocess
import sys
import time

SERVER = r'''
import asyncio, random, sys
from aiohttp import web
async def page(req):
    n = int(req.match_info["n"])
    await asyncio.sleep(random.Random(n).choice([0.05, 0.2, 1.0, 4.0, 6.0]))
    links = " ".join(f"/p/{(n * 7 + k) % 400}" for k in range(3))
    return web.Response(text=f"page {n} " + links + " x" * 2000)
app = web.Application()
app.router.add_get("/p/{n}", page)
async def main():
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", int(sys.argv[1]))
    await site.start()
    print("serving", flush=True)
    await asyncio.sleep(3600)
asyncio.run(main())
'''


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


async def crawl(port: int, deadline: float) -> int:
    import aiohttp

    seen: set[int] = set()
    queue: asyncio.Queue[int] = asyncio.Queue()
    queue.put_nowait(1)
    sem = asyncio.Semaphore(3)
    fetched = 0

    async def one(session: aiohttp.ClientSession, n: int) -> None:
        nonlocal fetched
        async with sem:
            async with session.get(f"http://127.0.0.1:{port}/p/{n}") as r:
                text = await r.text()
        fetched += 1
        for tok in text.split():
            if tok.startswith("/p/"):
                m = int(tok[3:])
                if m not in seen:
                    seen.add(m)
                    queue.put_nowait(m)

    async with aiohttp.ClientSession() as session:
        pending: set[asyncio.Task[None]] = set()
        while time.monotonic() < deadline:
            while not queue.empty() and len(pending) < 3:
                pending.add(asyncio.create_task(one(session, queue.get_nowait())))
            if not pending:
                break
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for t in pending:
            t.cancel()
    return fetched


def main() -> int:
    port = free_port()
    srv = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], stdout=subprocess.PIPE, text=True)
    try:
        assert srv.stdout is not None
        line = srv.stdout.readline()
        assert line.strip() == "serving", line
        print("ready", flush=True)
        n = asyncio.run(crawl(port, time.monotonic() + 35))
        print(f"fetched {n}", flush=True)
    finally:
        srv.terminate()
        srv.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
