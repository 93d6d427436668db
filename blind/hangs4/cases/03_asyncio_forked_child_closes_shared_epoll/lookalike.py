# Look-alike: the fixed shape (the forked worker never returns into the inherited loop, so the parent
# keeps its self-pipe registration), and the job prepared in the executor thread takes 16 s; its
# result then wakes the parent loop, the worker gets the job and everything exits. CPython 3.12.1.
import asyncio
import os
import time


def prepare():
    time.sleep(16)
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
