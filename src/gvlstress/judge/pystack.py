"""What a thread's own Python stack says of the lock it waits for (pure): the frame whose code
takes it (below the standard library's wait frames and a lock class's entry), and a join whose
one other thread can only be waiting for the joiner."""

from __future__ import annotations

from gvlstress.judge import vocab
from gvlstress.model import Frame, ThreadView

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


JOIN_CYCLE_HINT = (
    "the joiner holds the lock the joined thread needs on its way out: release it before join() "
    "(copy what the thread must see, then join outside the lock), and join with a timeout"
)


def join_cycle(joiner: ThreadView, rest: list[ThreadView]) -> tuple[str, ...]:
    """A join whose one other Python thread waits to acquire a lock (a plain acquire, not a
    Condition's wait, which a notify lost before it began would leave as nobody's): a lock is
    held by a thread, and the joiner is the only one left to hold it. Each waits for the other."""
    if len(rest) != 1 or not vocab.is_lock_acquire(rest[0]) or vocab.python_waits(rest[0]):
        return ()
    b = rest[0]
    return (
        f"thread {b.tid} waits to acquire a lock at {vocab.line(vocab.outer_python(b))} that only thread "
        f"{joiner.tid} can hold (no other thread is left): a cycle, {joiner.tid} holds the lock while it "
        f"waits for {b.tid} to end, and {b.tid} waits for the lock",
    )
