import asyncio
import sys

from tornado.process import Subprocess

STEP = "import time, sys; time.sleep(float(sys.argv[1])); print('step done')"


async def build_step(seconds: float, reap_first: bool) -> None:
    p = Subprocess([sys.executable, "-c", STEP, str(seconds)])
    if reap_first:
        p.proc.wait()                              # the helper waits on the Popen object first ...
    print("ready", flush=True)
    code = await p.wait_for_exit(raise_error=False)   # ... then asks tornado for the exit code
    print("step exit code", code, flush=True)


def run(seconds: float, reap_first: bool) -> None:
    asyncio.run(build_step(seconds, reap_first))
