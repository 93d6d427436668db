# python/cpython#125037: a module starts a thread at import time and joins it; the thread imports
# that same module, whose import lock the importing (main) thread holds while it joins.
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mod_hang  # noqa: E402
print("done")
