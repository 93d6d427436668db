"""Shape: a cached function's per-call lock, re-entered through a logging filter.

Why it matters: one thread, a Python lock it already holds further down its own stack: the
cached wrapper holds its lock while the function runs; the function logs, and a logging filter
calls the same cached function, whose wrapper waits for the lock. The wait's frame is the lock
class's `__enter__`; the code that takes the lock is the wrapper, and the wrapper is further
down the same stack. A helper thread checks (/proc, bounded) that main is in the futex wait,
prints `ready`, and exits.
"""

import functools
import logging
import threading
from collections.abc import Callable

import handshake


class KeyLock:
    """A lock-like object, as caching libraries wrap theirs."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def cached(fn: Callable[[str], str]) -> Callable[[str], str]:
    lock, memo = KeyLock(), {}

    @functools.wraps(fn)
    def wrapped(key: str) -> str:
        with lock:  # held while the function computes
            if key not in memo:
                memo[key] = fn(key)
            return memo[key]

    return wrapped


@cached
def flag(key: str) -> str:
    logging.getLogger("app").warning("computing %s", key)
    return key.upper()


class Sampling(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return flag("sample") == "SAMPLE"  # re-enters the cached wrapper


def main() -> None:
    handler = logging.StreamHandler()
    handler.addFilter(Sampling())
    logging.getLogger("app").addHandler(handler)
    handshake.ready_once_in(handshake.FUTEX)
    flag("sample")


if __name__ == "__main__":
    main()
