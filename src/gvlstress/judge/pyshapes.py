"""Python-level shapes, from py-spy's frames (Python lines plus its native frames): lock-order
inversions of threading locks, joins, lost wakeups, the import lock, thread-pool exhaustion,
exit-time joins, Queue.join, and a fork that kept a lock whose holder it does not have."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gvlstress.judge import vocab
from gvlstress.judge.names import (
    EXIT_HANG,
    FORK_AFTER_INIT,
    FORK_HELD_LOCK,
    HINTS,
    IMPORT_LOCK,
    JOIN_BLOCKED,
    LOOP_SELF_WAIT,
    LOST_WAKEUP,
    PY_LOCK_ORDER,
    QUEUE_JOIN,
    SELF_LOCK,
    SIGNAL_HANDLER_LOCK,
    THREAD_POOL_EXHAUSTION,
    Match,
)
from gvlstress.judge.pystack import (
    JOIN_CYCLE_HINT,
    again_below,
    below_the_wait,
    held_across_wait,
    join_cycle,
    lock_across_pool,
)
from gvlstress.model import ThreadView, WaitKind
from gvlstress.model.evidence import (
    ConditionOnlyParent,
    ConditionWait,
    ConsumersWaitItems,
    ExitJoins,
    Fact,
    ForkNoExec,
    HandlerAcquires,
    HandlerInterrupted,
    ImportLockHolder,
    ImportLockWait,
    JoinerAmong,
    JoinerWaitsWakeup,
    LockHeldAtFork,
    LoopBlocks,
    LoopStalled,
    NeverEnd,
    NobodyNotifies,
    NoConsumer,
    NoFreeWorker,
    NoThreadLeft,
    OthersBlocked,
    PoolTasksWaitFutures,
    PyLockAcquirer,
    PyLockWaiters,
    QueueJoinWaits,
    ReenteredThrough,
    SelfWait,
    ThreadJoins,
    WaitsForOneOfThem,
)
from gvlstress.model.waitfor import End

SIGNAL_DISPATCH = ("_PyErr_CheckSignalsTstate", "_PyErr_CheckSignals", "PyErr_CheckSignals", "handle_signals")
"""CPython calling a Python signal handler between two bytecodes of the frame it interrupted."""


@dataclass(frozen=True)
class _Py:
    """What every Python shape reads: the threads with a Python view, all the threads, the
    process and the parent it was forked from (if it never exec'd)."""

    py: list[ThreadView]
    threads: list[ThreadView]
    pid: int
    forked_from: int | None

    def at(self, t: ThreadView) -> str:
        return vocab.line(vocab.outer_python(t))

    @property
    def joiners(self) -> list[ThreadView]:
        return [t for t in self.py if vocab.joins_thread(t)]

    @property
    def waiters(self) -> list[ThreadView]:
        return [t for t in self.py if vocab.python_at(t, "threading.py", "wait", 1)]


def _signal_handler_lock(c: _Py) -> Match | None:
    """A thread acquiring a lock inside a signal handler that interrupted the lock's holder: itself."""
    t = next((t for t in c.py if vocab.is_lock_acquire(t) and vocab.has(t, SIGNAL_DISPATCH)), None)
    if t is None:
        return None
    frames = vocab.python_frames(t)
    return Match(
        SIGNAL_HANDLER_LOCK,
        HINTS[SIGNAL_HANDLER_LOCK],
        (
            HandlerAcquires(t.tid, vocab.role(t, c.pid), vocab.first(t, SIGNAL_DISPATCH), c.at(t)),
            HandlerInterrupted(tuple(f.name for f in frames[3:6])),
        ),
    )


def _self_lock(c: _Py) -> Match | None:
    """The one thread blocked (acquiring a lock, or in a Condition or queue wait) does so under
    a function that is also further down its own stack: the outer call holds what the inner one
    waits for (a lock, a pool's slot) and waits for the inner one to return. Re-entered by a
    signal handler, a finalizer the garbage collector ran, a callback, a handler that logs, a
    redirect followed by calling itself."""
    blocked = [t for t in c.py if vocab.is_lock_acquire(t) or vocab.python_waits(t)]
    if len(blocked) != 1:
        return None
    t = blocked[0]
    frames = below_the_wait(vocab.python_frames(t))
    # the function that waits is itself further down: a framework's dispatcher repeated lower on
    # the stack (pluggy's _multicall under pytest, a recursive walk) says nothing about the wait
    top = frames[0] if frames else None
    j = again_below(frames)
    if top is None or j is None:
        return None
    i, again = 0, frames[j]
    between = [f.name for f in frames[i + 1 : j]]
    return Match(
        SELF_LOCK,
        HINTS[SELF_LOCK],
        (
            SelfWait(
                t.tid,
                vocab.role(t, c.pid),
                None if vocab.is_lock_acquire(t) else c.at(t),
                top.name,
                (top.file or "?").rsplit("/", 1)[-1],
                top.line,
                again.line,
                again.name if (again.file, again.name) != (top.file, top.name) else None,
            ),
            ReenteredThrough(tuple(between[:5])),
        ),
    )


_LOOP_FRAMES = (("asyncio/base_events.py", "_run_once"), ("asyncio/base_events.py", "run_forever"))


def _loop_self_wait(c: _Py) -> Match | None:
    """A thread running an event loop blocks, untimed, inside one of the loop's callbacks: the
    loop cannot run the task or callback that would end the wait (a future set by the loop)."""
    for t in c.py:
        if not (vocab.is_lock_acquire(t) or vocab.python_waits(t)):
            continue
        frames = vocab.python_frames(t)
        loop = next(
            (
                f
                for f in frames
                if any((f.file or "").endswith(s) and f.name.rsplit(".", 1)[-1] == n for s, n in _LOOP_FRAMES)
            ),
            None,
        )
        if loop is None:
            continue
        return Match(
            LOOP_SELF_WAIT,
            HINTS[LOOP_SELF_WAIT],
            (LoopBlocks(t.tid, vocab.role(t, c.pid), loop.name, c.at(t)), LoopStalled()),
        )
    return None


def _fork_held_lock(c: _Py) -> Match | None:
    """A fork that never exec'd, one thread, acquiring a lock a parent's thread held at fork(); or
    waiting on a condition (a future's result, an event) that only a thread of the parent could
    set: a pool's worker, say, which fork did not copy."""
    acquirer = next((t for t in c.py if vocab.is_lock_acquire(t)), None)
    if c.forked_from is None or acquirer is None or len(c.threads) != 1:
        return None
    forked = ForkNoExec(c.pid, c.forked_from, same_program=True)
    if vocab.python_at(acquirer, "threading.py", "wait", 2):
        return Match(
            FORK_AFTER_INIT,
            HINTS[FORK_AFTER_INIT],
            (forked, ConditionOnlyParent(acquirer.tid, c.at(acquirer))),
        )
    return Match(
        FORK_HELD_LOCK, HINTS[FORK_HELD_LOCK], (forked, LockHeldAtFork(acquirer.tid, c.at(acquirer)))
    )


def _exit_hang(c: _Py) -> Match | None:
    """The interpreter's exit joining a non-daemon thread that never ends."""
    exiting = next(
        (t for t in c.py if t.tid == c.pid and vocab.python_at(t, "threading.py", "_shutdown", 4)), None
    )
    if exiting is None:
        return None
    rest = [t for t in c.py if t is not exiting]
    return Match(
        EXIT_HANG,
        HINTS[EXIT_HANG],
        (
            ExitJoins(c.pid),
            NeverEnd(tuple((t.tid, t.python.name if t.python else "?", c.at(t)) for t in rest[:4])),
        ),
    )


def _queue_join(c: _Py) -> Match | None:
    """Queue.join() waiting for task_done() calls nobody will make."""
    joining = next((t for t in c.py if vocab.python_at(t, "queue.py", "join", 2)), None)
    if joining is None:
        return None
    getters = [t for t in c.py if vocab.python_at(t, "queue.py", "get", 2)]
    alone = not getters and len(c.threads) == 1
    return Match(
        QUEUE_JOIN,
        HINTS[QUEUE_JOIN],
        (
            QueueJoinWaits(joining.tid, vocab.role(joining, c.pid), c.at(joining)),
            ConsumersWaitItems(tuple(t.tid for t in getters), c.at(getters[0]))
            if getters
            else NoThreadLeft()
            if alone
            else NoConsumer(),
        ),
        end=End.GONE if alone else None,
    )


def _held_across(c: _Py) -> Match | None:
    """A lock held across a wait for another thread (`pystack.held_across_wait`), unless the one
    thread waiting for it holds it itself further down its own stack (a self-wait says more)."""
    held = held_across_wait(c.py, c.joiners, c.waiters, c.pid)
    return held if held is not None and _self_lock(c) is None else None


def _py_lock_order(c: _Py) -> Match | None:
    """Python threads waiting on different threading locks, each held by another of them."""
    joiners, waiters = c.joiners, c.waiters
    acquirers = [t for t in c.py if vocab.is_lock_acquire(t) and t not in joiners and t not in waiters]
    addrs = {t.futex_addr for t in acquirers if t.futex_addr is not None}
    if len(acquirers) < 2 or len(addrs) < 2:
        return None
    facts: tuple[Fact, ...] = (
        PyLockWaiters(len(acquirers), len(addrs)),
        *(
            PyLockAcquirer(t.tid, t.python.name if t.python else "?", vocab.line(t), t.futex_addr or 0)
            for t in acquirers[:6]
        ),
        *(JoinerAmong(t.tid, c.at(t)) for t in joiners[:2]),
    )
    return Match(PY_LOCK_ORDER, HINTS[PY_LOCK_ORDER], facts)


def _joins_and_waits(c: _Py) -> Match | None:
    """Joins and untimed condition waits and nothing else: the join is where the hang shows, the
    condition nobody notifies is where it starts (else the join on a blocked thread, or a lost
    wakeup with no join)."""
    joiners, waiters = c.joiners, c.waiters
    held = held_across_wait(c.py, joiners, waiters, c.pid)
    if held is not None:
        return held
    acquirers = [t for t in c.py if vocab.is_lock_acquire(t) and t not in joiners and t not in waiters]
    if joiners and not acquirers and waiters and all(t in joiners or t in waiters for t in c.py):
        w = waiters[0]
        return Match(
            LOST_WAKEUP,
            HINTS[LOST_WAKEUP],
            (
                ConditionWait(w.tid, vocab.role(w, c.pid), c.at(w), alone=True),
                *(JoinerWaitsWakeup(j.tid, vocab.role(j, c.pid), c.at(j)) for j in joiners[:2]),
            ),
        )
    if joiners:
        j = joiners[0]
        rest = [t for t in c.py if t is not j]
        cycle = join_cycle(j, rest)
        return Match(
            JOIN_BLOCKED,
            JOIN_CYCLE_HINT if cycle else HINTS[JOIN_BLOCKED],
            (
                ThreadJoins(j.tid, c.at(j)),
                OthersBlocked(len(rest), tuple((t.tid, c.at(t)) for t in rest[:4])),
                *cycle,
            ),
            end=End.CYCLE if cycle else None,
        )
    if waiters:  # led by a waiter that is not idle by design (a queue's feeder waiting for items)
        w = next((t for t in waiters if vocab.idle_reason(t, WaitKind.LOCK) is None), waiters[0])
        notifiers = [t for t in c.py if t not in waiters]
        return Match(
            LOST_WAKEUP,
            HINTS[LOST_WAKEUP],
            (
                ConditionWait(w.tid, vocab.role(w, c.pid), c.at(w), alone=False),
                NobodyNotifies(len(waiters), len(notifiers)),
            ),
        )
    return None


def python_shapes(threads: list[ThreadView], pid: int, forked_from: int | None = None) -> Match | None:
    """Python-level shapes, from py-spy's frames (Python lines plus its native frames): the
    first of `SHAPES`, most specific first, that names the closed wait set."""
    c = _Py([t for t in threads if t.python is not None], threads, pid, forked_from)
    return next((m for shape in SHAPES if (m := shape(c)) is not None), None)


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
            ImportLockWait(b.tid, vocab.role(b, pid), vocab.line(vocab.outer_python(b))),
            ImportLockHolder(
                h.tid, vocab.role(h, pid), module.file or "?", vocab.line(vocab.outer_python(h))
            ),
        ),
    )


def _thread_pool_exhaustion(py: list[ThreadView], pid: int) -> Match | None:
    """Every ThreadPoolExecutor worker runs a task that waits for a future (of a task queued
    behind it, as nothing else in the process can complete one)."""
    workers = [t for t in py if vocab.is_thread_pool_worker(t)]
    if not workers or not all(vocab.waits_for_pool_results(t) for t in workers):
        return None
    # the only worker, and nothing else waits but for the pool's results: it waits for itself (a
    # thread that joins it, a loop it waits on, is a party of a cycle instead)
    others = [t for t in py if t not in workers and vocab.waits_for_pool_results(t)]
    return Match(
        THREAD_POOL_EXHAUSTION,
        HINTS[THREAD_POOL_EXHAUSTION],
        (
            PoolTasksWaitFutures(
                tuple(t.tid for t in workers),
                workers[0].tid,
                vocab.line(vocab.outer_python(workers[0], vocab.FUTURE_WAITS)),
            ),
            NoFreeWorker(),
            *(
                WaitsForOneOfThem(
                    t.tid, vocab.role(t, pid), vocab.line(vocab.outer_python(t, vocab.FUTURE_WAITS))
                )
                for t in others[:2]
            ),
        ),
        end=End.SELF if len(workers) == 1 and len(py) == len(workers) + len(others) else None,
    )


SHAPES: tuple[Callable[[_Py], Match | None], ...] = (
    _signal_handler_lock,
    lambda c: _import_lock(c.py, c.pid),
    _fork_held_lock,
    _exit_hang,
    _held_across,
    _queue_join,
    lambda c: _thread_pool_exhaustion(c.py, c.pid),
    lambda c: lock_across_pool(c.py, c.pid),
    _py_lock_order,
    _self_lock,
    _loop_self_wait,
    _joins_and_waits,
)
"""Each Python-level shape once, in the order they are tried (the most specific first)."""
