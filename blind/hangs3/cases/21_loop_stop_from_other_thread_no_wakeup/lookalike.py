# Look-alike: the same direct loop.stop() from the main thread, but the loop has a timer due in 16 s;
# when it fires the loop sees the stop flag and ends; the join returns. CPython 3.12.1.
import asyncio
import threading

loop = asyncio.new_event_loop()
tid = []


def example():
    tid.append(threading.get_native_id())
    print("starting loop...", flush=True)
    loop.call_later(16, lambda: None)                     # a timer: the selector wakes after 16 s
    loop.run_forever()


def in_epoll_wait(native_id):
    with open(f"/proc/self/task/{native_id}/syscall") as f:
        return f.read().split()[0] in ("232", "281")     # epoll_wait / epoll_pwait


t = threading.Thread(target=example, name="loop-thread")
t.start()
while not tid or not in_epoll_wait(tid[0]):              # handshake: the loop sleeps in its selector
    pass
loop.stop()          # not thread-safe: sets a flag the sleeping loop never looks at
print("hang...", flush=True)
print("ready", flush=True)
t.join()
print("done")
