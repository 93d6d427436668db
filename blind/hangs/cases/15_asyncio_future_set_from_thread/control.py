# Control: the fix of kiwipy#70: complete the future on its loop with call_soon_threadsafe, which
# writes to the self-pipe and wakes the loop.
import asyncio, threading, time

def worker(loop_tid_box, fut, loop):
    tid = loop_tid_box[0]
    for _ in range(200):
        with open(f"/proc/self/task/{tid}/syscall") as fh:
            if fh.read().split()[0] == "232":
                break
        time.sleep(0.02)
    loop.call_soon_threadsafe(fut.set_result, "rpc reply")

async def main():
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    threading.Thread(target=worker, args=([threading.get_native_id()], fut, loop)).start()
    print("ready", flush=True)
    print(await fut)

asyncio.run(main())
