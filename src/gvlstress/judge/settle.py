"""What one snapshot settles (pure): the look pipeline asks, to spend its window only where the
verdict could still change: a closed wait its stacks name is settled, an outside wait or a burn
that looks like a spin is looked at again over the window."""

from __future__ import annotations

from gvlstress.judge import patterns, vocab
from gvlstress.judge.names import CLOSED_WAIT, JOIN_BLOCKED, LOST_WAKEUP
from gvlstress.judge.threads import wants_cpu
from gvlstress.model import Capture, ProbeFinding, ProbeKind

GENERIC = frozenset({LOST_WAKEUP, JOIN_BLOCKED, CLOSED_WAIT})
"""Shapes named from a thread's wait alone, which a rule across processes may name better."""


def needs_stacks(f: ProbeFinding) -> bool:
    """/proc alone says deadlock, or the progress thread waits on a lock that another thread
    might still end: the stacks decide (what it waits in; which threads are idle by design)."""
    return f.kind is ProbeKind.DEADLOCK or (f.kind is ProbeKind.WAITING and bool(f.chain))


def spin_like(f: ProbeFinding) -> bool:
    """Every thread that burned CPU over the window moved no byte and touched no new page: a
    spin's signature (compute in a loader allocates and faults pages: polars' rayon threads
    thousands a second, numpy's kernels hundreds). Only such a process is looked at over a
    window while it burns under a progress signal, since each look stops it a few times."""
    hot = [t for t in f.threads if not t.parked and wants_cpu(t, f.window_s)]
    return bool(hot) and all(not t.faults and not t.moved for t in hot)


TRUSTED_EARLY = frozenset({ProbeKind.DEADLOCK, ProbeKind.WAITING, ProbeKind.GONE, ProbeKind.STOPPED})
"""What a /proc window opened before a progress signal went quiet for its whole threshold may
decide: a closed wait, an outside wait, an exit. Anything else (CPU burnt) may be the last of the
work before the stall, and is sampled again over a window of its own."""


def settled(f: ProbeFinding, capture: Capture | None, progress: bool) -> bool:
    """One snapshot decides this process; the look's window cannot change its verdict.

    Gone and stopped processes; a deadlock its own stacks name (no rule across processes names
    one better, unless its main thread waits for a pool's results: the pool's accounting says
    more); and, under a progress signal, a busy process whose threads fault pages or move bytes
    (real work: the window would only stop it). Everything else (a wait on something outside,
    a spin-like burn, a generic or unnamed closed wait) is looked at over the window with its
    relatives."""
    if f.kind in (ProbeKind.GONE, ProbeKind.STOPPED):
        return True
    if f.kind is ProbeKind.DEADLOCK:
        named = patterns.match(f, capture)
        main = capture.thread(f.progress_tid or f.pid) if capture else None
        pooled = main is not None and vocab.waits_for_pool_results(main)
        return named is not None and named.pattern not in GENERIC and not pooled
    return progress and f.kind is ProbeKind.LIVELOCK and not spin_like(f)
