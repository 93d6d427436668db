# aiidateam/kiwipy#70 ("aio_future.set_exception is non-thread-safe"; python/asyncio#312): a worker
# thread completes an asyncio future directly. The done-callback is queued with the loop's
# non-thread-safe call_soon, which writes nothing to the loop's self-pipe; the loop, asleep in
# epoll_wait with no timer, is never woken and the thread has finished.
import asyncio, threading, time

def worker(loop_tid_box, fut):
    tid = loop_tid_box[0]
    # wait until the loop thread sleeps in epoll_wait (syscall 232 on x86-64)
    for _ in range(200):
        with open(f"/proc/self/task/{tid}/syscall") as fh:
            if fh.read().split()[0] == "232":
                break
        time.sleep(0.02)
    fut.set_result("rpc reply")      # not thread-safe: no wake-up

async def main():
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    threading.Thread(target=worker, args=([threading.get_native_id()], fut)).start()
    print("ready", flush=True)
    print(await fut)

asyncio.run(main())
