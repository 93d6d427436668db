# python/cpython#133536 ("asyncio.create_subprocess_exec hanging when exception in gathered task"; same
# root cause as #125502 and #103847, fixed by PR #140805 in 3.13.10/3.14.1): when the task creating a
# subprocess with pipes is cancelled while the transport connects its pipes, the transport's pending
# calls are dropped, connection_lost() is never called and its exit waiters are never woken; the task
# then waits in transport._wait() forever, and asyncio.run()'s final cancellation of tasks waits for it.
# Here a pipeline step spawns a tool while a sibling step fails. CPython 3.12.1.
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
    try:
        await asyncio.gather(run_tool(), validate())
    except ValueError as exc:
        print("pipeline failed:", exc)
    print("ready", flush=True)          # asyncio.run() now cancels run_tool(), stuck in transport._wait()


asyncio.run(main())
print("exited")
