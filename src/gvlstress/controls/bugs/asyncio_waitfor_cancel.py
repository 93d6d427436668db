"""asyncio.wait_for() swallows a cancellation (CPython < 3.12): when the awaited future
completes in the same loop iteration as the task running wait_for() is cancelled, wait_for()
returns the result and the CancelledError is lost (CPython bpo-42130,
https://github.com/python/cpython/issues/86296; fixed in 3.12 by rewriting wait_for() on
asyncio.timeout(), https://github.com/python/cpython/pull/98518). Here a consumer task loops
on `wait_for(queue.get(), timeout)`; at shutdown the last item arrives and the consumer is
cancelled together: it swallows the cancel, goes back to waiting for an item nobody will put,
and the `await consumer` of the shutdown never returns. The event loop sits in epoll_wait with
only the consumer's long timeout pending. The app (a child of this program) runs the loop; this
program watches it through /proc.
Control: the fix as a user applies it on 3.11, `async with asyncio.timeout()` instead of
wait_for(): the cancellation reaches the consumer, and the shutdown ends."""

from __future__ import annotations

import asyncio

import _ready

TIMEOUT_S = 3600.0  # the consumer's idle timeout: a periodic wake-up that finds no item


async def consumer(queue: asyncio.Queue[int], fixed: bool) -> None:
    while True:
        try:
            if fixed:
                async with asyncio.timeout(TIMEOUT_S):
                    item = await queue.get()
            else:
                item = await asyncio.wait_for(queue.get(), TIMEOUT_S)
        except TimeoutError:
            continue
        queue.task_done()
        del item  # handled


async def shutdown(fixed: bool) -> None:
    queue: asyncio.Queue[int] = asyncio.Queue()
    task = asyncio.create_task(consumer(queue, fixed))
    await asyncio.sleep(0)  # the consumer waits for an item
    queue.put_nowait(1)  # the last item, and the shutdown, in one loop iteration
    task.cancel()
    try:
        await task  # the app: never returns, the consumer swallowed the cancel
    except asyncio.CancelledError:
        return


def idle(app: int) -> bool:
    """The loop's thread (the app's only thread) waits in epoll_wait."""
    return len(_ready.tids(app)) == 1 and _ready.call_of(app) in _ready.EPOLLS


def main() -> None:
    if _ready.is_app() or _ready.control():
        asyncio.run(shutdown(fixed=_ready.control()))
        return
    app = _ready.app()
    _ready.settled(lambda: idle(app.pid), "waited for the swallowed cancellation", stable=10)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
