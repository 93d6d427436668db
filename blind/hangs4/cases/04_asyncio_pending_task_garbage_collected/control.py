# Control: the documented fix for python/cpython#91887: the background task is kept in a set (a strong
# reference), so the collection does not destroy it; the publication reaches it, it sets the Event and
# the program ends. CPython 3.11.7.
import asyncio
import gc
import weakref

subscribers = weakref.WeakSet()          # a pub/sub registry that does not keep its subscribers alive
background = set()


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
    background.add(asyncio.create_task(subscriber(done)))   # the documented fix: a strong reference
    await asyncio.sleep(0.1)                  # the subscriber is now waiting on its future
    gc.collect()                              # a collection at this point destroys the pending task
    publisher = asyncio.create_task(publish("batch-1", 0.5))
    print("ready", flush=True)
    await done.wait()
    await publisher
    print("done")


asyncio.run(main())
