# Control: the fix direction of cpython#157573 / threadpoolctl: the second call releases the GIL while it
# waits for the loader (ctypes.CDLL), so the callback can take the GIL and finish. CPython 3.11.7.
from common import run

run(gil_held_in_second_call=False)
