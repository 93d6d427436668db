# python/cpython#130442 ("Asyncio: fork() in coroutine causes bad file descriptor"): after os.fork() in a
# coroutine, the child shares the parent's epoll instance. When the forked child leaves the coroutine,
# asyncio.run() in the child closes "its" event loop, and closing unregisters the loop's self-pipe from
# that shared epoll: the parent's loop no longer sees the self-pipe, so a result handed back from a thread
# (call_soon_threadsafe writes the self-pipe) never wakes it. Here the child is a prefork worker that,
# after leaving the coroutine, waits for jobs on a pipe from the parent; the parent first awaits a
# run_in_executor() result. CPython 3.12.1 (still open).
import asyncio
import os
import time


def prepare():
    time.sleep(0.5)
    return b"job-1\n"


async def main():
    loop = asyncio.get_running_loop()
    jobs_r, jobs_w = os.pipe()
    up_r, up_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(jobs_w)
        os.close(up_r)
        return ("worker", jobs_r, up_w)          # leaves the coroutine: asyncio.run() closes the loop
    os.close(jobs_r)
    os.close(up_w)
    os.read(up_r, 1)                             # handshake: the worker has closed its copy of the loop
    print("ready", flush=True)
    job = await loop.run_in_executor(None, prepare)
    os.write(jobs_w, job)
    os.close(jobs_w)
    os.waitpid(pid, 0)
    return ("parent", None, None)


role, jobs_r, up_w = asyncio.run(main())
if role == "worker":
    os.write(up_w, b"u")
    while os.read(jobs_r, 4096):                 # the worker serves jobs until the parent closes the pipe
        pass
    os._exit(0)
print("done")
