# python/cpython#112202 (fix: python/cpython#112201, "Ensure that condition.notify() succeeds even when
# racing with Task.cancel()"): notify(1) picks waiter w1, whose task is cancelled before it runs; w1 leaves
# with CancelledError and the notification is lost instead of passing to w2, which waits forever although an
# item is available. The loop idles (no timer, no other task). CPython 3.11.7 (asyncio).
from common import run

run()
