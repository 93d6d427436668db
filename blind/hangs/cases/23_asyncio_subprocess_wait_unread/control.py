# Control: the fix of ai-agent-book#112: drain stdout and stderr concurrently with wait()
# (communicate()).
import asyncio, sys

async def main():
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "import sys; sys.stdout.write('x' * 2_000_000); sys.stdout.flush()",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    print("ready", flush=True)
    out, err = await proc.communicate()
    print("done", proc.returncode, len(out))

asyncio.run(main())
