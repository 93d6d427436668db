# Look-alike: proc.wait() on a child with piped stdout that writes a little and works 16 s; the
# loop waits for its exit.
import asyncio, sys

async def main():
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "import sys, time; sys.stdout.write('x' * 1000); sys.stdout.flush(); time.sleep(16)",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    print("ready", flush=True)
    rc = await proc.wait()
    out = await proc.stdout.read()
    print("done", rc, len(out))

asyncio.run(main())
