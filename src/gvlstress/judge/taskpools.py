"""Native thread pools whose tasks wait for futures of their own pool (pure): every worker of
the pool is inside a task blocked on a future, so none is free to run the work those futures
wait for, queued behind them (an IO pool of one thread reading through itself, C++ or Rust).

A pool is told by its workers' entry frame (the outermost frame that is the pool's own, below
the C library's and the language runtime's thread start), which its idle workers share: an idle
worker waits in the pool's loop, with no future on its stack.
"""

from __future__ import annotations

from gvlstress.judge.frames import short_name
from gvlstress.judge.names import HINTS, THREAD_POOL_EXHAUSTION, Match
from gvlstress.model import Frame, ThreadView
from gvlstress.model.evidence import NativePoolAll, NativePoolAlone, NoIdleWorker
from gvlstress.model.waitfor import End

_THREAD_START = (
    "start_thread",
    "clone",
    "execute_native_thread_routine",
    "thread_start",
    "__rust_begin_short_backtrace",
    "FnOnce::call_once",
    "std::thread::Builder",
)
"""Frames every thread of a C, C++ or Rust program starts under: not a pool's own."""


def entry(t: ThreadView) -> str | None:
    """The outermost frame of `t`'s native stack that is not the thread start's."""
    for f in reversed(t.native):
        if not any(s in f.name for s in _THREAD_START) and "libc.so" not in (f.module or ""):
            return f.name
    return None


def future_wait(t: ThreadView) -> Frame | None:
    """The frame where `t` waits for a future (`arrow::FutureImpl::Wait`, `std::future::wait`,
    `std::__basic_future::_M_get_result`, folly's or boost's): None when it waits on none."""
    for f in t.native:
        low = f.name.lower()
        if "future" in low and ("wait" in low or low.endswith("::get()") or "_m_get_result" in low):
            return f
    return None


def pool_waits_on_itself(threads: list[ThreadView], pid: int) -> Match | None:
    """Every worker of one native pool blocked on a future inside a task, none idle: the pool
    is exhausted by its own tasks (one worker: it waits for itself)."""
    pools: dict[str, list[ThreadView]] = {}
    for t in threads:
        if t.tid != pid and t.native and (e := entry(t)) is not None:
            pools.setdefault(e, []).append(t)
    for name, workers in pools.items():
        waiting = [(t, f) for t in workers if (f := future_wait(t)) is not None]
        if not waiting or len(waiting) != len(workers):
            continue
        t, f = waiting[0]
        alone = len(workers) == 1
        return Match(
            THREAD_POOL_EXHAUSTION,
            HINTS[THREAD_POOL_EXHAUSTION],
            (
                NativePoolAlone(t.tid, short_name(name, 4), short_name(f.name))
                if alone
                else NativePoolAll(tuple(w.tid for w in workers), short_name(name, 4), short_name(f.name)),
                NoIdleWorker(),
            ),
            end=End.SELF if alone else End.CYCLE,
        )
    return None
