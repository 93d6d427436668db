"""asyncio.Condition.notify() lost to a cancellation (CPython < 3.13): notify(1) wakes one
waiting task, which is cancelled in the same loop iteration (a timeout, a shutdown of that
worker); it leaves wait() with CancelledError and the wake-up is not passed on, so the other
waiter sleeps on although an item is there (CPython gh-112202,
https://github.com/python/cpython/issues/112202; fixed in 3.13 by
https://github.com/python/cpython/pull/112201). Here two consumers wait for items; one item is
produced and one consumer is cancelled together; the program then waits for the other consumer,
which never wakes: the event loop sits in epoll_wait with no timer and no descriptor but its
own. The app (a child of this program) runs the loop; this program watches it through /proc.
Control: the upstream fix applied as a subclass: a waiter that leaves wait() by an exception
notifies another waiter in its place."""

from __future__ import annotations

import asyncio
from typing import Literal

import _ready


class FixedCondition(asyncio.Condition):
    """GH-112201: whatever ends a wait() by an exception may have consumed a notify(), so pass
    one on (a spurious wake-up, which the condition-variable protocol allows)."""

    async def wait(self) -> Literal[True]:
        try:
            return await super().wait()
        except BaseException:
            self.notify(1)  # the lock is held again here: wait() reacquires it before raising
            raise


async def consume(cond: asyncio.Condition, items: list[int]) -> int:
    async with cond:
        while not items:
            await cond.wait()
        return items.pop()


async def produce_one(fixed: bool) -> int:
    cond = FixedCondition() if fixed else asyncio.Condition()
    items: list[int] = []
    first = asyncio.create_task(consume(cond, items))
    second = asyncio.create_task(consume(cond, items))
    await asyncio.sleep(0)  # both consumers wait on the condition
    async with cond:
        items.append(1)
        cond.notify(1)  # wakes the first consumer...
    first.cancel()  # ...which is cancelled before it runs
    return await second  # the app: never returns


def idle(app: int) -> bool:
    """The loop's thread (the app's only thread) waits in epoll_wait."""
    return len(_ready.tids(app)) == 1 and _ready.call_of(app) in _ready.EPOLLS


def main() -> None:
    if _ready.is_app() or _ready.control():
        assert asyncio.run(produce_one(fixed=_ready.control())) == 1
        return
    app = _ready.app()
    _ready.settled(lambda: idle(app.pid), "waited for the lost notify", stable=10)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
