# python/cpython#155890 ("ProcessPoolExecutor deadlocks against the import lock when the submitted callable
# is defined in the module being imported"): importing `features` runs a process pool at import time and
# waits for its results while holding the module's import lock; the executor pickles the callable in its
# manager thread, and pickling a module-level function imports its module: that thread waits for the
# module lock held by the main thread, which waits for the results. CPython 3.11.7 (fork start method).
import features

print("table", features.TABLE, flush=True)
