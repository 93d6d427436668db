"""Shape: an import-lock deadlock -- a module's top-level code joins a thread that imports it.

Why it matters: the importing thread holds the module's import lock while it runs the module;
the thread it joins blocks in importlib's _ModuleLock.acquire under _find_and_load. It reads
as "join on a blocked thread" unless the import lock is named. import_lock_target.py starts
the thread and a watcher that prints `ready` once both are parked, then exits.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import import_lock_target  # noqa: F401  (the import is the hang)
