# Control: the answer given in the thread: from another thread, stop the loop with
# loop.call_soon_threadsafe(loop.stop), which wakes its selector; the loop thread ends. CPython 3.12.1.
import asyncio
import threading

loop = asyncio.new_event_loop()
tid = []


def example():
    tid.append(threading.get_native_id())
    print("starting loop...", flush=True)
    loop.run_forever()


def in_epoll_wait(native_id):
    with open(f"/proc/self/task/{native_id}/syscall") as f:
        return f.read().split()[0] in ("232", "281")     # epoll_wait / epoll_pwait


t = threading.Thread(target=example, name="loop-thread")
t.start()
while not tid or not in_epoll_wait(tid[0]):              # handshake: the loop sleeps in its selector
    pass
loop.call_soon_threadsafe(loop.stop)   # the thread-safe way: wakes the selector
print("hang...", flush=True)
print("ready", flush=True)
t.join()
print("done")
