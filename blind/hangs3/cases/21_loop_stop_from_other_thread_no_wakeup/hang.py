# python/cpython#124780 (AbstractEventLoop.stop() doesn't stop if nothing has been executed): the main
# thread calls loop.stop() directly on a loop that runs, idle, in another (non-daemon) thread; stop()
# only sets a flag and does not wake the loop's selector, so the loop never stops and the interpreter
# waits for that thread at exit. CPython 3.12.1.
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
loop.stop()          # not thread-safe: sets a flag the sleeping loop never looks at
print("hang...", flush=True)
print("ready", flush=True)
t.join()
print("done")
