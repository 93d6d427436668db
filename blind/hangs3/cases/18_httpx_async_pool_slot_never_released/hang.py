# encode/httpx#1315 (Async client does not close underlying stream thus leaving connection active which
# leads to hitting pool limit): after a completed request the connection stays ACTIVE in the pool;
# with max_connections=1 and no pool timeout, the next request waits forever for a pool slot nobody
# will release. httpx 0.15.0 (httpcore 0.11) on CPython 3.8.18; the server is a child process.
import asyncio, os, subprocess, sys
import httpx

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py")], stdout=subprocess.PIPE, text=True)
url = f"http://127.0.0.1:{int(srv.stdout.readline())}/"


async def main():
    c = httpx.AsyncClient(limits=httpx.Limits(max_connections=1), timeout=None)
    r = await c.get(url)
    print(r, r.text, flush=True)
    print("ready", flush=True)
    r = await c.get(url)                    # waits for the pool slot of the first connection
    print(r, r.text)
    await c.aclose()


try:
    asyncio.run(main())
finally:
    srv.kill()
    srv.wait()
