# Look-alike (on the fixed release, httpx 0.15.5): the same client (max_connections=1, no timeout) and
# the same two requests; the second one is slow (the server answers after 16 s); both complete.
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
    r = await c.get(url + "slow")
    print(r, r.text)
    await c.aclose()


try:
    asyncio.run(main())
finally:
    srv.kill()
    srv.wait()
