# bytedance/SandboxFusion#53 and bojieli/ai-agent-book#112 (asyncio docs: Process.wait() "can
# deadlock when using stdout=PIPE"): the runner awaits proc.wait() before draining the pipes; the
# StreamReader stops reading at its limit, the pipe fills, the child blocks in write(), and the
# event loop waits for the child's exit.
import asyncio, sys

async def main():
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "import sys; sys.stdout.write('x' * 2_000_000); sys.stdout.flush()",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    print("ready", flush=True)
    rc = await proc.wait()
    out = await proc.stdout.read()
    print("done", rc, len(out))

asyncio.run(main())
