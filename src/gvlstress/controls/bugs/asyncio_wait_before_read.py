"""asyncio's documented subprocess pitfall: `await proc.wait()` on a child whose stdout is a
PIPE, before reading it; the child fills the pipe and blocks writing, so it never exits, and the
wait never returns (https://docs.python.org/3/library/asyncio-subprocess.html#asyncio.subprocess.Process.wait:
"This method can deadlock when using stdout=PIPE ... Use the communicate() method"). On CPython
3.11 the loop's child watcher is a thread in waitpid(). Control: communicate()."""

import asyncio
import os
import sys
import threading

import _ready

WRITE, WAIT4 = "1", "61"
CHILD = "import sys; sys.stdout.write('x' * (1 << 20)); sys.stdout.flush()"


async def run(control: bool) -> None:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", CHILD, stdout=asyncio.subprocess.PIPE)
    if control:
        out, _ = await proc.communicate()
        assert len(out) == 1 << 20
        return
    me = os.getpid()

    def watch() -> None:
        blocked = lambda: WRITE in _ready.syscalls(proc.pid) and WAIT4 in _ready.syscalls(me)  # noqa: E731
        _ready.settled(blocked, "blocked")
        _ready.announce(me)

    threading.Thread(target=watch, daemon=True).start()
    await proc.wait()  # never returns: the child blocks writing into the pipe nobody reads


if __name__ == "__main__":
    asyncio.run(run(_ready.control()))
