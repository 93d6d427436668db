# zigpy/bellows#745 (connection_lost() tears down the worker loop ... run_coroutine_threadsafe into a
# stopped loop): the worker thread's event loop was stopped (not closed), so run_coroutine_threadsafe()
# does not raise; the coroutine is queued on a loop no thread runs any more, and fut.result() without
# a timeout waits forever. CPython 3.11.7 (asyncio, threading).
import asyncio
import threading

loop = asyncio.new_event_loop()
worker = threading.Thread(target=loop.run_forever, name="bellows-worker-loop", daemon=True)
worker.start()
stopped = threading.Event()
loop.call_soon_threadsafe(lambda: (loop.stop(), stopped.set()))   # what force_stop() does
stopped.wait()
worker.join()                                                      # the loop's thread has exited
print("loop stopped:", not loop.is_running(), "closed:", loop.is_closed(), flush=True)


async def disconnect():
    return "ran"


fut = asyncio.run_coroutine_threadsafe(disconnect(), loop)         # does not raise
print("ready", flush=True)
print("got:", fut.result())                                        # no timeout: waits forever
