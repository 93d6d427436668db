# Control: the fix of the thread (close the loop when its thread stops, so late callers fail fast
# instead of queueing on a dead loop): run_coroutine_threadsafe raises RuntimeError('Event loop is closed').
import asyncio
import threading

loop = asyncio.new_event_loop()
worker = threading.Thread(target=loop.run_forever, name="bellows-worker-loop", daemon=True)
worker.start()
stopped = threading.Event()
loop.call_soon_threadsafe(lambda: (loop.stop(), stopped.set()))
stopped.wait()
worker.join()
loop.close()
print("loop stopped:", not loop.is_running(), "closed:", loop.is_closed(), flush=True)


async def disconnect():
    return "ran"


print("ready", flush=True)
coro = disconnect()
try:
    fut = asyncio.run_coroutine_threadsafe(coro, loop)
    print("got:", fut.result())
except RuntimeError as e:
    coro.close()
    print("refused:", e)
