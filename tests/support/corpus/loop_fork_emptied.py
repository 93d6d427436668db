"""Shape: a child forked inside a running asyncio loop closes its copy of the loop, which empties
the epoll set the parent's loop shares with it; the parent then awaits an executor's result.

Why it matters: the loop waits in epoll_wait() with no timeout on a set that watches nothing, not
even its own wake-up pipe, so the executor thread's call_soon_threadsafe() can never wake it. One
look can tell: the epoll set is read from /proc (fdinfo), empty. The child reports (a byte on a
pipe) once its loop is closed; a helper thread prints `ready` once the parent's main thread is in
epoll_wait(), and only then lets the executor's job return (a result sent before the loop sleeps
is found before it sleeps: no hang); the child exits.
"""

import asyncio
import os
import threading

import handshake

EPOLL_WAIT = "232"


async def main() -> str:
    loop = asyncio.get_running_loop()
    closed_r, closed_w = os.pipe()
    if os.fork() == 0:
        os.close(closed_r)
        return f"child {closed_w}"  # asyncio.run() closes the loop: the shared set empties
    os.close(closed_w)
    os.read(closed_r, 1)  # the child's loop is closed
    tids = [threading.get_native_id()]
    asleep = threading.Event()
    handshake.ready_once_in(EPOLL_WAIT, lambda: tids, then=asleep.set)
    # the result comes once the loop sleeps (sooner, the loop would find it before it sleeps)
    await loop.run_in_executor(None, lambda: asleep.wait(10.0))  # its result never wakes the loop
    return "parent"


def run() -> None:
    role = asyncio.run(main())
    if role.startswith("child"):
        os.write(int(role.split()[1]), b"c")
        os._exit(0)


if __name__ == "__main__":
    run()
