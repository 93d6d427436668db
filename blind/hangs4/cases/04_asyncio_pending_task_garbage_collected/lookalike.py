# Look-alike: the fixed program (strong reference to the subscriber task, CPython 3.11.7), and the
# publisher publishes after 16 s: the main task waits on the same Event, set when the message arrives.
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
    publisher = asyncio.create_task(publish("batch-1", 16))
    print("ready", flush=True)
    await done.wait()
    await publisher
    print("done")


asyncio.run(main())
