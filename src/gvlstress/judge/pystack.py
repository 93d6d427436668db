"""What Python stacks say of who holds the lock a thread waits for (pure): the frame whose code
takes it (below the standard library's wait frames and a lock class's entry), and, by
elimination, the only thread left to hold it: a joiner whose one other thread waits for a lock, a
thread waiting for a pool's results while every busy worker waits for one lock."""

from __future__ import annotations

from gvlstress.judge import vocab
from gvlstress.judge.names import HINTS, LOCK_ACROSS, NESTED_MONITOR, Match
from gvlstress.model import Frame, ThreadView, WaitKind
from gvlstress.model.evidence import (
    AcquiresLock,
    BlockedBeside,
    HeldAcrossWait,
    JoinCycle,
    OnlyHolderWaitsPool,
    PoolTasksWaitLock,
)
from gvlstress.model.waitfor import End

_WAIT_FUNCTIONS = frozenset(
    {"wait", "wait_for", "_wait", "_enter", "acquire", "_acquire_restore", "_wait_for_tstate_lock", "join"}
    | {"get", "put"}
)
"""The standard library's own wait frames (threading's Condition, Event, Barrier, join; queue's
get and put): the code that waits is below them. threading's other functions (enumerate, a
Thread's start) are code like any other: one of them re-entered holds its own lock."""

_LOCK_ENTRY = frozenset({"__enter__", "acquire", "_acquire"})
"""A lock class's own entry (a `with` on a lock-like object, its acquire): the code taking the
lock is its caller."""


def below_the_wait(frames: tuple[Frame, ...]) -> tuple[Frame, ...]:
    """The thread's Python frames from the one whose code takes the lock or waits (innermost
    first): the standard library's wait frames and a lock class's entry above it dropped."""
    i = 0
    while i < len(frames):
        f, bare = frames[i], frames[i].name.rsplit(".", 1)[-1]
        stdlib = (f.file or "").endswith(vocab.STDLIB_WAITS) and bare in _WAIT_FUNCTIONS
        if not (stdlib or bare in _LOCK_ENTRY):
            break
        i += 1
    return frames[i:]


_ENDED_BY = {("socketserver.py", "shutdown"): ("socketserver.py", "serve_forever")}
"""Standard library waits that only another function's return ends: (file, function) -> the
function (socketserver's shutdown() waits until serve_forever() returns)."""


def _bare(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def ender_of(f: Frame) -> tuple[str, str] | None:
    """The function whose return ends the wait `f` is in, when the standard library says so."""
    return next(
        (e for (file, fn), e in _ENDED_BY.items() if (f.file or "").endswith(file) and _bare(f.name) == fn),
        None,
    )


def again_below(frames: tuple[Frame, ...]) -> int | None:
    """Where, further down the stack, the function that waits (`frames[0]`, from `below_the_wait`)
    comes again, or the function whose return ends its wait (`ender_of`): the thread waits for
    its own caller. None when neither is there."""
    if not frames:
        return None
    top, ender = frames[0], ender_of(frames[0])
    return next(
        (
            k
            for k in range(1, len(frames))
            if (frames[k].file, frames[k].name) == (top.file, top.name)
            or (ender and (frames[k].file or "").endswith(ender[0]) and _bare(frames[k].name) == ender[1])
        ),
        None,
    )


JOIN_CYCLE_HINT = (
    "the joiner holds the lock the joined thread needs on its way out: release it before join() "
    "(copy what the thread must see, then join outside the lock), and join with a timeout"
)


def join_cycle(joiner: ThreadView, rest: list[ThreadView]) -> tuple[JoinCycle, ...]:
    """A join whose one other Python thread waits to acquire a lock (a plain acquire, not a
    Condition's wait, which a notify lost before it began would leave as nobody's): a lock is
    held by a thread, and the joiner is the only one left to hold it. Each waits for the other."""
    if len(rest) != 1 or not vocab.is_lock_acquire(rest[0]) or vocab.python_waits(rest[0]):
        return ()
    b = rest[0]
    return (JoinCycle(b.tid, vocab.line(vocab.outer_python(b)), joiner.tid),)


def held_across_wait(
    py: list[ThreadView], joiners: list[ThreadView], waiters: list[ThreadView], pid: int
) -> Match | None:
    """Exactly one Python thread waits to acquire a plain lock (not a Condition's wait) while every
    other one waits on a Condition (an Event, a queue) or joins: the lock is held by one of them,
    across that wait, and the one thread left that could wake them is the lock's waiter. Each
    waits for the other (a nested monitor lockout)."""
    acquirers = [
        t
        for t in py
        if t not in joiners
        and t not in waiters
        and vocab.is_lock_acquire(t)
        and not vocab.python_waits(t)
        and vocab.idle_reason(t, WaitKind.LOCK) is None  # an idle pool worker's C queue wait is no lock
    ]
    if (
        len(acquirers) != 1
        or not waiters
        or any(t not in joiners and t not in waiters for t in py if t not in acquirers)
    ):
        return None
    a, blocked = acquirers[0], [t for t in py if t is not acquirers[0]]
    return Match(
        NESTED_MONITOR,
        HINTS[NESTED_MONITOR],
        (
            AcquiresLock(a.tid, vocab.role(a, pid), vocab.line(vocab.outer_python(a)), a.futex_addr),
            *(
                BlockedBeside(t.tid, vocab.role(t, pid), t in joiners, vocab.line(vocab.outer_python(t)))
                for t in blocked[:4]
            ),
            HeldAcrossWait(len(blocked), a.tid),
        ),
        end=End.CYCLE,
    )


def lock_across_pool(py: list[ThreadView], pid: int) -> Match | None:
    """Every busy ThreadPoolExecutor worker waits, inside its task, to acquire one lock, while the
    one other Python thread waits for the pool's results: a lock is held by a thread, and that
    thread is the only one left to hold it. It holds the lock across its wait for the tasks that
    need it (one lock for every instance of a class, taken by a method that fans out to a pool)."""
    workers = [t for t in py if vocab.is_thread_pool_worker(t)]
    busy = [t for t in workers if not vocab.python_at(t, "concurrent/futures/thread.py", "_worker", depth=1)]
    waiting = [t for t in py if t not in workers and vocab.waits_for_pool_results(t)]
    rest = [t for t in py if t not in workers and t not in waiting]
    addrs = {t.futex_addr for t in busy if t.futex_addr is not None}
    if (
        not busy
        or len(waiting) != 1
        or rest
        or len(addrs) != 1
        or any(t.futex_addr is None for t in busy)
        or not all(vocab.is_lock_acquire(t) and not vocab.python_waits(t) for t in busy)
    ):
        return None
    m = waiting[0]
    return Match(
        LOCK_ACROSS,
        LOCK_ACROSS_POOL_HINT,
        (
            PoolTasksWaitLock(
                tuple(t.tid for t in busy), next(iter(addrs)), vocab.line(vocab.outer_python(busy[0]))
            ),
            OnlyHolderWaitsPool(
                m.tid, vocab.role(m, pid), vocab.line(vocab.outer_python(m, vocab.FUTURE_WAITS))
            ),
        ),
        end=End.CYCLE,
    )


LOCK_ACROSS_POOL_HINT = (
    "release the lock before waiting for the pool's results (or give the tasks a lock of their own): "
    "a lock held across the wait for tasks that take it never comes free; one lock for every instance "
    "(functools.cached_property before Python 3.12, a class-level lock) fans a nested call into it"
)
