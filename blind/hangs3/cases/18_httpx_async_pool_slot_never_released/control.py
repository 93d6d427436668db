# Control: the same program on a release with the fix (httpx 0.15.5): the first response releases its
# connection, the second request reuses it.
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
