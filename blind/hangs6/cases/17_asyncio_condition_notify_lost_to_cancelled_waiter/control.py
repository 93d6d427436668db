# Control: CPython 3.13.0, which has the fix (a cancelled, already-notified waiter passes the notification
# on): w2 takes the item. asyncio.
from common import run

run()
