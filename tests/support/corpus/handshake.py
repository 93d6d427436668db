"""The corpus programs' handshake: `ready` once the wait under test is in place.

A program prints `ready` and then blocks; a look taken between the two would see it running. So
a helper thread prints `ready` only once /proc shows the waiting thread(s) asleep in the syscall
the shape is about, bounded (exit 3 if they never get there). Programs here run by path, so
their directory is on sys.path and `import handshake` finds this file.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable

FUTEX, READ, RECVFROM = "202", "0", "45"
"""x86_64 syscall numbers as /proc/TID/syscall prints them."""


def _in(tid: int, syscall: str) -> bool:
    try:
        with open(f"/proc/self/task/{tid}/syscall") as fh:
            return fh.read().split()[0] == syscall
    except (OSError, IndexError):
        return False


def ready_once_in(
    syscall: str,
    threads: Callable[[], list[int]] | None = None,
    count: int = 1,
    then: Callable[[], None] | None = None,
    also: tuple[tuple[str, int], ...] = (),
) -> None:
    """Print `ready` from a daemon thread once `count` threads (`threads()`; default: the one
    calling this) sleep in `syscall`, and each `also` (syscall, thread id) pair's thread in its
    own, then call `then` (a shape whose hang needs the wait in place first: a wake-up sent only
    once the waiter sleeps)."""
    me = threading.get_native_id()
    which = threads or (lambda: [me])

    def waiting() -> bool:
        tids = which()
        return (
            bool(tids)
            and len(tids) >= count
            and all(_in(t, syscall) for t in tids)
            and all(_in(tid, nr) for nr, tid in also)
        )

    def watch() -> None:
        deadline = time.monotonic() + 10.0
        while not waiting():
            if time.monotonic() > deadline:
                print("the wait never started", file=sys.stderr, flush=True)
                os._exit(3)
            time.sleep(0.02)  # a /proc poll with a deadline
        print("ready", flush=True)
        if then is not None:
            then()

    threading.Thread(target=watch, daemon=True).start()
