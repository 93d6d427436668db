# Look-alike: the same executor call on trio-asyncio 0.14.0 with max_workers=2 (two tokens: one for submit,
# one for the thread); the work in the thread takes 16 s, then the call returns. CPython 3.11.7.
from common import run

run(max_workers=2, seconds=16.0)
