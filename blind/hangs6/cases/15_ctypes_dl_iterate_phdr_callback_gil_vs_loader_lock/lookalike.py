# Look-alike: the same two dl_iterate_phdr() calls, the main thread's with the GIL released; the scanning
# thread's callback works 16 s while it holds the loader lock, then both calls finish. CPython 3.11.7.
from common import run

run(gil_held_in_second_call=False, work_seconds=16.0)
