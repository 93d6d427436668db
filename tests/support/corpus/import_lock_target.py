"""Imported by import_lock.py: starts a thread that imports this module, and joins it."""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import sys
import threading
import time

FUTEX = "202"  # x86_64
_tids: list[int] = [threading.get_native_id()]


def _parked(tids: list[int]) -> bool:
    try:
        return all(open(f"/proc/self/task/{t}/syscall").read().split()[0] == FUTEX for t in tids)
    except (OSError, IndexError):
        return False


def _importer() -> None:
    _tids.append(threading.get_native_id())
    import import_lock_target  # noqa: F401  (blocks: the main thread is still importing it)


def _watcher() -> None:
    deadline = time.monotonic() + 10.0
    while len(_tids) < 2 or not _parked(_tids):
        if time.monotonic() > deadline:
            print("never parked", file=sys.stderr, flush=True)
            os._exit(3)
        time.sleep(0.02)
    print("ready", flush=True)


_t = threading.Thread(target=_importer, name="importer")
_t.start()
threading.Thread(target=_watcher, daemon=True).start()
_t.join()
