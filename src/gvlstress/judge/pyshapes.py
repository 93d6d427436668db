"""Python-level shapes, from py-spy's frames (Python lines plus its native frames): lock-order
inversions of threading locks, joins, lost wakeups, the import lock, thread-pool exhaustion,
exit-time joins, Queue.join, and a fork that kept a lock whose holder it does not have."""

from __future__ import annotations

from gvlstress.judge import vocab
from gvlstress.judge.names import (
    EXIT_HANG,
    FORK_HELD_LOCK,
    HINTS,
    IMPORT_LOCK,
    JOIN_BLOCKED,
    LOST_WAKEUP,
    PY_LOCK_ORDER,
    QUEUE_JOIN,
    SIGNAL_HANDLER_LOCK,
    THREAD_POOL_EXHAUSTION,
    Match,
)
from gvlstress.model import ThreadView

SIGNAL_DISPATCH = ("_PyErr_CheckSignalsTstate", "_PyErr_CheckSignals", "PyErr_CheckSignals", "handle_signals")
"""CPython calling a Python signal handler between two bytecodes of the frame it interrupted."""


def python_shapes(threads: list[ThreadView], pid: int, forked_from: int | None = None) -> Match | None:
    """Python-level shapes, from py-spy's frames (Python lines plus its native frames)."""
    py = [t for t in threads if t.python is not None]
    in_handler = next((t for t in py if vocab.is_lock_acquire(t) and vocab.has(t, SIGNAL_DISPATCH)), None)
    if in_handler is not None:
        frames = vocab.python_frames(in_handler)
        return Match(
            SIGNAL_HANDLER_LOCK,
            HINTS[SIGNAL_HANDLER_LOCK],
            (
                f"thread {in_handler.tid} ({vocab.role(in_handler, pid)}) runs a signal handler "
                f"({vocab.first(in_handler, SIGNAL_DISPATCH)} on its stack) and waits to acquire a lock at "
                f"{vocab.line(vocab.outer_python(in_handler))}",
                "the handler interrupted this same thread's frames, which hold the lock and cannot go on until "
                "the handler returns"
                + (f" (below it: {', '.join(f.name for f in frames[3:6])})" if len(frames) > 3 else ""),
            ),
        )
    imported = _import_lock(py, pid)
    if imported is not None:
        return imported
    acquirer = next((t for t in py if vocab.is_lock_acquire(t)), None)
    if forked_from is not None and acquirer is not None and len(threads) == 1:
        return Match(
            FORK_HELD_LOCK,
            HINTS[FORK_HELD_LOCK],
            (
                f"process {pid} is a fork of process {forked_from} that never exec'd (same program and "
                "arguments), and has one thread",
                f"thread {acquirer.tid} waits to acquire a lock at {vocab.line(vocab.outer_python(acquirer))}, and no "
                "thread in this process can release it: it was held at fork() time by a thread of the parent, "
                "which fork() does not copy",
            ),
        )
    exiting = next(
        (t for t in py if t.tid == pid and vocab.python_at(t, "threading.py", "_shutdown", 4)), None
    )
    if exiting is not None:
        rest = [t for t in py if t is not exiting]
        return Match(
            EXIT_HANG,
            HINTS[EXIT_HANG],
            (
                f"the main thread {pid} is in threading._shutdown: the program ended and the interpreter "
                "joins its non-daemon threads",
                "they never end: "
                + (
                    "; ".join(
                        f"{t.tid} ({t.python.name if t.python else '?'}) at {vocab.line(vocab.outer_python(t))}"
                        for t in rest[:4]
                    )
                    or "none is left, yet the join waits"
                ),
            ),
        )
    joining = next((t for t in py if vocab.python_at(t, "queue.py", "join", 2)), None)
    if joining is not None:
        getters = [t for t in py if vocab.python_at(t, "queue.py", "get", 2)]
        return Match(
            QUEUE_JOIN,
            HINTS[QUEUE_JOIN],
            (
                f"thread {joining.tid} ({vocab.role(joining, pid)}) waits in Queue.join() at "
                f"{vocab.line(vocab.outer_python(joining))}: it returns when every item got a task_done()",
                (
                    f"{len(getters)} consumer(s) ({vocab.tids(getters)}) wait in Queue.get() for more items at "
                    f"{vocab.line(vocab.outer_python(getters[0]))}: the queue is drained, yet tasks are unfinished"
                    if getters
                    else "no thread takes items from the queue, and no thread can call task_done()"
                ),
            ),
        )
    exhausted = _thread_pool_exhaustion(py, pid)
    if exhausted is not None:
        return exhausted
    joiners = [t for t in py if vocab.python_at(t, "threading.py", "_wait_for_tstate_lock", 2)]
    waiters = [t for t in py if vocab.python_at(t, "threading.py", "wait", 1)]
    acquirers = [t for t in py if vocab.is_lock_acquire(t) and t not in joiners and t not in waiters]
    addrs = {t.futex_addr for t in acquirers if t.futex_addr is not None}
    if len(acquirers) >= 2 and len(addrs) >= 2:
        lines = [
            f"{len(acquirers)} Python threads wait to acquire {len(addrs)} different threading locks, and "
            "no thread outside them can release one:",
            *(
                f"thread {t.tid} ({t.python.name if t.python else '?'}) at {vocab.line(t)}, lock {t.futex_addr or 0:#x}"
                for t in acquirers[:6]
            ),
            *(f"thread {t.tid} waits in join() at {vocab.line(vocab.outer_python(t))}" for t in joiners[:2]),
        ]
        return Match(PY_LOCK_ORDER, HINTS[PY_LOCK_ORDER], tuple(lines))
    if joiners and not acquirers and waiters and all(t in joiners or t in waiters for t in py):
        # a join is where the hang shows; the condition nobody notifies is where it starts
        w = waiters[0]
        return Match(
            LOST_WAKEUP,
            HINTS[LOST_WAKEUP],
            (
                f"thread {w.tid} ({vocab.role(w, pid)}) waits in Condition/Event wait() with no timeout at "
                f"{vocab.line(vocab.outer_python(w))}, and no thread is left to notify it",
                *(
                    f"thread {j.tid} ({vocab.role(j, pid)}) waits in Thread.join() at "
                    f"{vocab.line(vocab.outer_python(j))}: it waits for the wakeup too"
                    for j in joiners[:2]
                ),
            ),
        )
    if joiners:
        j = joiners[0]
        rest = [t for t in py if t is not j]
        return Match(
            JOIN_BLOCKED,
            HINTS[JOIN_BLOCKED],
            (
                f"thread {j.tid} waits in Thread.join() at {vocab.line(vocab.outer_python(j))}",
                f"the {len(rest)} other Python thread(s) are blocked themselves: "
                + (
                    "; ".join(f"{t.tid} at {vocab.line(vocab.outer_python(t))}" for t in rest[:4])
                    or "none exists"
                ),
            ),
        )
    if waiters:
        w = waiters[0]
        notifiers = [t for t in py if t not in waiters]
        return Match(
            LOST_WAKEUP,
            HINTS[LOST_WAKEUP],
            (
                f"thread {w.tid} ({vocab.role(w, pid)}) waits in Condition/Event wait() with no timeout at "
                f"{vocab.line(vocab.outer_python(w))}",
                (
                    f"{len(waiters)} thread(s) wait on conditions and the {len(notifiers)} other Python "
                    "thread(s) are blocked themselves, so nothing in the process can notify"
                    if notifiers
                    else f"{len(waiters)} thread(s) wait on conditions and no other Python thread exists to notify"
                ),
            ),
        )
    return None


def _import_lock(py: list[ThreadView], pid: int) -> Match | None:
    """A thread blocked on a module's import lock while the thread running that module's
    top-level code (it holds the lock) waits for something itself."""
    blocked = [t for t in py if vocab.waits_for_module_lock(t)]
    holders = [(t, m) for t in py if t not in blocked and (m := vocab.module_being_imported(t)) is not None]
    if not blocked or not holders:
        return None
    b, (h, module) = blocked[0], holders[0]
    return Match(
        IMPORT_LOCK,
        HINTS[IMPORT_LOCK],
        (
            f"thread {b.tid} ({vocab.role(b, pid)}) waits for a module's import lock (importlib "
            f"_ModuleLock.acquire) at {vocab.line(vocab.outer_python(b))}",
            f"thread {h.tid} ({vocab.role(h, pid)}) holds it: it is running the top-level code of "
            f"{module.file or '?'} for an import, and waits at {vocab.line(vocab.outer_python(h))}",
        ),
    )


def _thread_pool_exhaustion(py: list[ThreadView], pid: int) -> Match | None:
    """Every ThreadPoolExecutor worker runs a task that waits for a future (of a task queued
    behind it, as nothing else in the process can complete one)."""
    workers = [t for t in py if vocab.is_thread_pool_worker(t)]
    if not workers or not all(vocab.waits_for_pool_results(t) for t in workers):
        return None
    others = [t for t in py if t not in workers and vocab.waits_for_pool_results(t)]
    return Match(
        THREAD_POOL_EXHAUSTION,
        HINTS[THREAD_POOL_EXHAUSTION],
        (
            f"all {len(workers)} thread-pool workers ({vocab.tids(workers)}) are inside tasks that wait for a "
            f"future, e.g. thread {workers[0].tid} at {vocab.line(vocab.outer_python(workers[0], vocab.FUTURE_WAITS))}",
            "no worker is free to run the tasks they wait for, which are queued behind them",
            *(
                f"thread {t.tid} ({vocab.role(t, pid)}) waits for one of them at {vocab.line(vocab.outer_python(t, vocab.FUTURE_WAITS))}"
                for t in others[:2]
            ),
        ),
    )
