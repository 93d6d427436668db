"""Imported by import_thread_join.py: at import time (the bug) or later (the control) starts a
thread that imports this module, and joins it."""

import os
import threading

import _ready


def _importer() -> None:
    import _import_target  # noqa: F401  (blocks while the main thread is still importing it)


def start_and_join() -> None:
    t = threading.Thread(target=_importer, name="importer")
    t.start()
    if not os.environ.get("GVLSTRESS_BUG_CONTROL"):
        me = os.getpid()
        watcher = threading.Thread(
            target=lambda: (_ready.settled(lambda: _ready.in_futex(me) >= 2, "parked"), _ready.announce(me)),
            daemon=True,
        )
        watcher.start()
    t.join()


if not os.environ.get("GVLSTRESS_BUG_CONTROL"):
    start_and_join()
