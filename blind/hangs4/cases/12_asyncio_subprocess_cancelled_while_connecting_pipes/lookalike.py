# Look-alike: the same pipeline with the fix (return_exceptions=True), the tool takes 16 s: the event loop
# waits for its pipes and its exit (the child watcher thread in waitpid), then the program exits.
# CPython 3.12.1.
import asyncio
import sys


async def run_tool():
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "import time; time.sleep(16); print('stats')",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    return out


async def validate():
    raise ValueError("schema mismatch")


async def main():
    print("ready", flush=True)
    results = await asyncio.gather(run_tool(), validate(), return_exceptions=True)   # no sibling cancelled
    print("pipeline results:", results)


asyncio.run(main())
print("exited")
