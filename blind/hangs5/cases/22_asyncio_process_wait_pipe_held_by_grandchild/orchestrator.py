import asyncio
import os
import sys


def run(poll_returncode, helper_seconds=None):
    async def main():
        ctl_r, ctl_w = os.pipe()
        extra = [str(helper_seconds)] if helper_seconds else []
        proc = await asyncio.create_subprocess_exec(sys.executable, "tool.py", str(ctl_r), *extra,
                                                    stdout=asyncio.subprocess.PIPE, pass_fds=[ctl_r])
        os.close(ctl_r)
        print("ready", flush=True)
        if poll_returncode:                 # the fix: wait for the child itself
            while proc.returncode is None:
                await asyncio.sleep(0.05)
            rc = proc.returncode
        else:
            rc = await proc.wait()          # also waits for the stdout pipe to close
        print("tool exited", rc, flush=True)
        os.close(ctl_w)                     # then shut the tool's helpers down
        print((await proc.stdout.read()).decode().strip(), flush=True)

    asyncio.run(main())
