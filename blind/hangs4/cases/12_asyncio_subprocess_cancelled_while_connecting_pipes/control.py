# Control: the application-level fix used for python/cpython#133536 until PR #140805: the steps are
# gathered with return_exceptions=True, so the failing step does not cancel the one creating the
# subprocess; the tool runs to the end and the program exits. CPython 3.12.1.
import asyncio
import sys


async def run_tool():
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "print('stats')",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    return out


async def validate():
    raise ValueError("schema mismatch")


async def main():
    results = await asyncio.gather(run_tool(), validate(), return_exceptions=True)   # no sibling cancelled
    print("pipeline results:", results)
    print("ready", flush=True)


asyncio.run(main())
print("exited")
