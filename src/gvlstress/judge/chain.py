"""Following the wait of the thread that must progress to the threads that could end it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from gvlstress.judge import vocab
from gvlstress.model import Capture, ThreadDelta, ThreadView, WaitKind


@dataclass(frozen=True)
class Chain:
    """Where the wait of the progress thread leads."""

    closed: bool
    """Everything that could end the wait is blocked too (idle-by-design threads aside)."""
    lines: tuple[str, ...]
    opener: ThreadDelta | None = None
    """The first thread that can still end it (in I/O, a sleep, running)."""
    idle: tuple[str, ...] = ()


POOL_RESULTS = "its process pool's results (the thread that reads them from the worker processes)"
PYTHON_WAIT = "a Python lock, condition or thread"
JOINED = "a thread it joins (one of the Python threads)"
"""A join waits for one particular thread, which may be one idle by design (an executor's
manager thread polling its pipes while shutdown() joins it): those are candidates too."""


def who(t: ThreadDelta, views: Mapping[int, ThreadView], pid: int) -> str:
    """'thread 12 (main thread, python3)': a thread named for the reader, its role from its stacks."""
    v = views.get(t.tid)
    who = vocab.role(v, pid) if v else ("main thread" if t.tid == pid else "thread")
    return f"thread {t.tid} ({who}, {t.comm})"


def _is_blocked(t: ThreadDelta, v: ThreadView | None) -> bool:
    """Waits the way a deadlock's threads do: an untimed futex, or the GIL (a 5 ms timed wait
    in a loop), or rayon's sleep (a pool thread with no job)."""
    kind = t.wait.kind if t.wait else WaitKind.OTHER
    if kind is WaitKind.LOCK:
        return True
    return kind is WaitKind.TIMED and v is not None and vocab.is_gil_wait(v)


def _targets(
    p: ThreadDelta,
    threads: tuple[ThreadDelta, ...],
    views: Mapping[int, ThreadView],
    capture: Capture | None,
    pid: int,
) -> tuple[str, list[ThreadDelta], bool]:
    """What the progress thread waits for, and the threads that can end that wait.

    The third value says the candidates are complete (a native view covered every thread), so
    an empty list means the threads it waits for do not exist (e.g. after fork).
    """
    others = [t for t in threads if t.tid != p.tid]
    pv = views.get(p.tid)
    if pv is None:
        return "a futex", others, False
    native_complete = bool(
        capture and capture.native.ok and all(views[t.tid].native for t in others if t.tid in views)
    )
    if vocab.has(pv, vocab.LATCH):
        pool = [t for t in others if (v := views.get(t.tid)) is not None and vocab.is_pool_thread(v)]
        unknown = [t for t in others if (v := views.get(t.tid)) is None or not v.native]
        return "its rayon jobs (the pool threads)", pool + unknown, native_complete
    if vocab.is_gil_wait(pv):
        owner = [t for t in others if (v := views.get(t.tid)) is not None and v.owns_gil]
        return "the GIL", owner or others, bool(owner)
    if vocab.has(pv, vocab.TOKIO_PARK):
        rt = [t for t in others if (v := views.get(t.tid)) is not None and vocab.is_tokio_thread(v)]
        return "its tokio runtime", rt, native_complete
    if vocab.waits_for_pool_results(pv):
        readers = [t for t in others if (v := views.get(t.tid)) is not None and vocab.reads_pool_results(v)]
        if readers:
            return POOL_RESULTS, readers, True
    if vocab.python_frames(pv) and vocab.joins_thread(pv):
        py = [t for t in others if (v := views.get(t.tid)) is not None and v.python is not None]
        return JOINED, py, True
    if vocab.python_frames(pv) and (vocab.is_lock_acquire(pv) or vocab.python_waits(pv)):
        py = [t for t in others if (v := views.get(t.tid)) is not None and v.python is not None]
        return PYTHON_WAIT, py, True
    return "a futex", others, False


def follow(
    p: ThreadDelta,
    threads: tuple[ThreadDelta, ...],
    views: Mapping[int, ThreadView],
    capture: Capture | None,
    pid: int,
) -> Chain:
    """Follow the progress thread's lock wait to the threads that could end it."""
    label, candidates, complete = _targets(p, threads, views, capture, pid)
    lines = [f"{who(p, views, pid)} waits for {label}: {p.wait.detail if p.wait else 'futex'}"]
    if not candidates:
        if complete:
            lines.append(f"no thread in the process can end that wait (none of {label} exists)")
            return Chain(True, tuple(lines))
        lines.append("no other thread exists that could end the wait")
        return Chain(True, tuple(lines))
    idle: list[str] = []
    blocked: list[ThreadDelta] = []
    # When the wait is *for* a pool (its rayon jobs, its tokio runtime), that pool's idle threads
    # are what it waits on: judged like any other. Otherwise idle-by-design threads are no evidence.
    targeted = label.startswith(("its rayon", "its tokio")) or label in (POOL_RESULTS, JOINED)
    for t in candidates:
        v = views.get(t.tid)
        kind = t.wait.kind if t.wait else WaitKind.OTHER
        why = vocab.idle_reason(v, kind) if v else vocab.idle_by_comm(t.comm, kind)
        runs_callbacks = label == PYTHON_WAIT and kind in (WaitKind.IO, WaitKind.POLL) and v is not None
        if why and not targeted and not runs_callbacks:
            idle.append(f"{t.tid}: {why}")
            continue
        if why and not targeted:
            # a Python thread idle by design on descriptors: what arrives wakes it, and it runs
            # what arrives (an executor's manager sets futures and runs their done-callbacks,
            # which may notify the condition waited on)
            lines.append(
                f"{who(t, views, pid)} ({why}) can still end it when its descriptors are written: "
                f"{t.wait.detail if t.wait else t.state}"
            )
            return Chain(False, tuple(lines), opener=t, idle=tuple(idle))
        if _is_blocked(t, v):
            blocked.append(t)
            continue
        lines.append(f"{who(t, views, pid)} can still end it: {t.wait.detail if t.wait else t.state}")
        return Chain(False, tuple(lines), opener=t, idle=tuple(idle))
    if blocked:
        where_ = Counter((t.wait.detail.split(" (")[0] if t.wait else "futex") for t in blocked)
        lines.append(
            f"{len(blocked)} thread(s) that could end it are blocked themselves ("
            + ", ".join(f"{n} in {w}" for w, n in where_.most_common(3))
            + ")"
        )
    return Chain(True, tuple(lines), idle=tuple(idle))
