# joblib/threadpoolctl#239 ("Deadlock when running dl_iterate_phdr in parallel with GIL Python") and
# python/cpython#157573 ("Prevent deadlocks in ctypes.util.dllist() on Linux"): one thread walks the
# loaded libraries with dl_iterate_phdr() and a ctypes callback into Python (glibc's loader lock held while
# the callback runs); the main thread calls dl_iterate_phdr() with the GIL held (as NumPy's backtrace()
# does; here through ctypes.PyDLL). The main thread holds the GIL and waits for the loader lock; the scanning
# thread holds the loader lock and waits for the GIL. CPython 3.11.7 (ctypes, glibc).
from common import run

run(gil_held_in_second_call=True)
