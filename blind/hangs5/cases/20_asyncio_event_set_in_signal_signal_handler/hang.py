# python/cpython#122938 ("Asyncio.Event.wait doesn't resume execution when the event is set if no other
# tasks are active"): the service sets its asyncio stop Event from a handler installed with
# signal.signal(); the handler runs in Python between bytecodes, Event.set() schedules the waiter's
# wake-up with call_soon, but nothing writes to the loop's self-pipe, so the selector goes back to
# epoll_wait() with no timeout and the scheduled callback never runs. CPython 3.12.1 (asyncio, signal).
from service import run

run("signal.signal", 0.3, heartbeat=False)
