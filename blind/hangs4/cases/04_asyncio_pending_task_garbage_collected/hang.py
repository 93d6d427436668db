# python/cpython#91887 ("asyncio: Use strong references for free-flying tasks"): the event loop keeps only
# weak references to tasks. A background task started with create_task() and not referenced elsewhere,
# waiting on a future that only a weak registry knows about, is garbage collected while pending ("Task was
# destroyed but it is pending!"). Here a subscriber task waits for a published message and would then set
# the Event the main task waits on; a garbage collection destroys it first, the publication finds no
# subscriber, and the main task waits for an Event nobody is left to set. CPython 3.11.7 (by design; the
# documented fix is to keep a strong reference). The collection is run explicitly where one would happen.
import asyncio
import gc
import weakref

subscribers = weakref.WeakSet()          # a pub/sub registry that does not keep its subscribers alive


async def subscriber(done):
    fut = asyncio.get_running_loop().create_future()
    subscribers.add(fut)
    message = await fut
    done.set()
    return message


async def publish(message, delay):
    await asyncio.sleep(delay)
    for fut in list(subscribers):
        fut.set_result(message)


async def main():
    done = asyncio.Event()
    asyncio.create_task(subscriber(done))     # fire-and-forget: no reference kept
    await asyncio.sleep(0.1)                  # the subscriber is now waiting on its future
    gc.collect()                              # a collection at this point destroys the pending task
    publisher = asyncio.create_task(publish("batch-1", 0.5))
    print("ready", flush=True)
    await done.wait()
    await publisher
    print("done")


asyncio.run(main())
