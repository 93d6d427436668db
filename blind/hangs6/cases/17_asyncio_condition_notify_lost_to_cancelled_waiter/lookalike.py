# Look-alike: the same lost notification on CPython 3.11.7, but a periodic sweep task re-notifies all
# waiters 16 s later; w2 then takes the item. asyncio.
from common import run

run(renotify_after=16.0)
