# Control: the usual fix for a fork inside a running event loop (python/cpython#130442): the forked child
# never returns into the inherited loop; it runs its worker and leaves with os._exit(), so the shared
# epoll keeps the parent's self-pipe and the run_in_executor() result wakes the parent. CPython 3.12.1.
import asyncio
import os
import time


def prepare():
    time.sleep(0.5)
    return b"job-1\n"


def worker(jobs_r, up_w):
    os.write(up_w, b"u")
    while os.read(jobs_r, 4096):
        pass
    os._exit(0)


async def main():
    loop = asyncio.get_running_loop()
    jobs_r, jobs_w = os.pipe()
    up_r, up_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(jobs_w)
        os.close(up_r)
        worker(jobs_r, up_w)                     # never returns into the inherited event loop
    os.close(jobs_r)
    os.close(up_w)
    os.read(up_r, 1)
    print("ready", flush=True)
    job = await loop.run_in_executor(None, prepare)
    os.write(jobs_w, job)
    os.close(jobs_w)
    os.waitpid(pid, 0)


asyncio.run(main())
print("done")
