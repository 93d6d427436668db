# Look-alike: an import that also waits on a process pool's results, with the callable in a module that is
# already imported; the 8 items take 16 s in the worker, then the import completes. CPython 3.11.7.
import slowfeatures

print("table", slowfeatures.TABLE, flush=True)
