"""Named failure patterns, recognised from frames and /proc facts alone.

The requested fault mode never reaches this module (a test runs a fault without telling the
harness): a pattern is named only from what the threads show. Each match carries the evidence
that decided it and a one-line remediation hint; nothing matching names the closed wait
by its end ("a wait no thread or process left can end"). Crash and error causes are read from what the worker printed.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Callable
from dataclasses import dataclass

from gvlstress.judge import runtimes, vocab
from gvlstress.judge.case import Case
from gvlstress.judge.finalize import exit_destructor, exit_finalizer_wait
from gvlstress.judge.mutexes import mutex_match
from gvlstress.judge.names import (
    CLOSED_WAIT,
    FORK_AFTER_INIT,
    FORK_HELD_LOCK,
    GIL_HELD,
    GIL_LOCK_INVERSION,
    HINTS,
    LIVELOCK,
    LOCK_ACROSS,
    LOCK_ORDER,
    POOL_EXHAUSTION,
    Match,
)
from gvlstress.judge.pyshapes import python_shapes
from gvlstress.judge.taskpools import pool_waits_on_itself
from gvlstress.model import Capture, ProbeFinding, ThreadView
from gvlstress.model.evidence import (
    BurntNoProgress,
    Fact,
    ForeignThreadStates,
    GilAcrossLatch,
    GilHolderOnNativeLock,
    GilWaiters,
    HeldByWaiters,
    HolderAmongGilWaiters,
    HolderWaitsJobs,
    InsideFork,
    LockHolderNotCopied,
    MutexGroups,
    NoIdlePoolThread,
    OneMutexWaiters,
    PoolAllBlocked,
    PoolWaitsGil,
    RuntimeNotForked,
    RuntimeWorkersMissing,
    ThreadUsed,
    WaitsForPool,
)


def closed_wait(capture: Capture | None) -> Match:
    """The honest answer when no shape matched."""
    if capture is None or not any(t.native or t.python for t in capture.threads):
        return Match(
            CLOSED_WAIT,
            HINTS[CLOSED_WAIT] + " (no stacks were captured, so no pattern can be named)",
            (),
        )
    return Match(CLOSED_WAIT, HINTS[CLOSED_WAIT], ())


def match(finding: ProbeFinding | None, capture: Capture | None) -> Match | None:
    """Name the shape of a closed wait set, or None. `capture` may lack views (less is named).

    Absence is claimed only from a complete view: "no pool thread" needs the native tool to have
    seen every thread, so a missing native view never reads as "fork after pool start".
    """
    exact = mutex_match(finding) if finding is not None else None
    if exact is not None:  # the mutexes' owner fields say who holds what: no shape to guess
        return exact
    if capture is None or not any(t.native or t.python for t in capture.threads):
        return None
    pid = capture.pid
    threads = list(capture.threads)
    native_complete = capture.native.ok and all(t.native for t in threads)
    pool = [t for t in threads if vocab.is_pool_thread(t)]
    others = [t for t in threads if t not in pool]
    latch_waiters = [t for t in others if vocab.has(t, vocab.LATCH)]
    idle = [t for t in pool if vocab.has(t, vocab.RAYON_IDLE)]
    busy = [t for t in pool if t not in idle]

    gil_waiters = [t for t in busy if vocab.has(t, vocab.GIL_WAIT)]
    owners = [t for t in threads if t.owns_gil]
    if gil_waiters and latch_waiters:
        owner = owners[0] if owners else latch_waiters[0]
        return Match(
            GIL_HELD,
            HINTS[GIL_HELD],
            (
                GilAcrossLatch(
                    owner.tid, vocab.role(owner, pid), bool(owners), vocab.first(owner, vocab.LATCH)
                ),
                PoolWaitsGil(tuple(t.tid for t in gil_waiters), vocab.first(gil_waiters[0], vocab.GIL_WAIT)),
            ),
        )
    in_fork = _inside_fork(threads, capture)
    if in_fork is not None:
        return in_fork
    at_exit = exit_destructor(threads, pid)
    if at_exit is not None:
        return at_exit
    late = exit_finalizer_wait(Case(finding, capture)) if finding is not None else None
    if late is not None:
        return late[1]
    inversion = _gil_lock_inversion(threads, owners, pid)
    if inversion is not None:
        return inversion
    fork = _fork(threads, native_complete)
    if fork is not None:
        return fork

    mutex_waiters = [t for t in threads if vocab.has(t, vocab.MUTEX) and t.futex_addr is not None]
    by_addr: dict[int, list[ThreadView]] = {}
    for t in mutex_waiters:
        by_addr.setdefault(t.futex_addr or 0, []).append(t)
    if len(by_addr) >= 2:
        groups = sorted(by_addr.items(), key=lambda kv: -len(kv[1]))
        return Match(
            LOCK_ORDER,
            HINTS[LOCK_ORDER],
            (MutexGroups(tuple((addr, tuple(t.tid for t in ts)) for addr, ts in groups)), HeldByWaiters()),
        )
    if len(by_addr) == 1:
        addr, waiters = next(iter(by_addr.items()))
        holder_side = [t for t in latch_waiters if t not in waiters] or [t for t in busy if t not in waiters]
        if holder_side:
            h = holder_side[0]
            return Match(
                LOCK_ACROSS,
                HINTS[LOCK_ACROSS],
                (
                    OneMutexWaiters(
                        tuple(t.tid for t in waiters), addr, vocab.first(waiters[0], vocab.MUTEX)
                    ),
                    HolderWaitsJobs(h.tid, vocab.role(h, pid), vocab.first(h, vocab.LATCH)),
                ),
            )

    channel_blocked = [t for t in busy if vocab.has(t, vocab.CHANNEL)]
    if (
        pool
        and not idle
        and latch_waiters
        and len(channel_blocked) + len([t for t in busy if t.futex_addr]) >= len(pool)
    ):
        what = vocab.first(channel_blocked[0], vocab.CHANNEL) if channel_blocked else "a blocking wait"
        return Match(
            POOL_EXHAUSTION,
            HINTS[POOL_EXHAUSTION],
            (
                PoolAllBlocked(len(pool), what, len(channel_blocked)),
                NoIdlePoolThread(),
                WaitsForPool(latch_waiters[0].tid, vocab.first(latch_waiters[0], vocab.LATCH)),
            ),
        )
    own = pool_waits_on_itself(threads, pid)
    if own is not None:
        return own
    return python_shapes(threads, pid, capture.forked_from)


def _inside_fork(threads: list[ThreadView], capture: Capture) -> Match | None:
    """A child still inside fork(): its thread runs the at-fork child handlers and waits on a
    lock that was held, at fork() time, by a thread the child does not have."""
    t = next((t for t in threads if t.futex_addr is not None and vocab.has(t, runtimes.AT_FORK)), None)
    stale = capture.foreign_tids and capture.forked_from is not None and len(threads) == 1
    if t is None and stale and threads[0].futex_addr is not None:
        t = threads[0]  # no native view, but an interpreter still listing its parent's threads
    if t is None:
        return None
    handler = vocab.first(t, runtimes.AT_FORK) if vocab.has(t, runtimes.AT_FORK) else None
    facts: list[Fact] = [
        InsideFork(t.tid, handler, t.futex_addr or 0, vocab.line(t)),
        LockHolderNotCopied(len(threads)),
    ]
    if capture.foreign_tids:
        facts.append(ForeignThreadStates(tuple(capture.foreign_tids)))
    return Match(FORK_HELD_LOCK, HINTS[FORK_HELD_LOCK], tuple(facts))


def _gil_lock_inversion(threads: list[ThreadView], owners: list[ThreadView], pid: int) -> Match | None:
    """The GIL's holder blocks on a native lock (not the GIL, not a rayon latch) while other
    threads wait for the GIL: whoever holds that lock is one of them, or nobody can free it."""
    blocked = [
        t
        for t in owners
        if t.futex_addr is not None and not vocab.is_gil_wait(t) and not vocab.has(t, vocab.LATCH)
    ]
    waiters = [t for t in threads if t not in owners and vocab.is_gil_wait(t)]
    if not blocked or not waiters:
        return None
    o = blocked[0]
    lock = vocab.first(o, vocab.MUTEX + vocab.ONCE)
    at = lock if lock != "?" else vocab.where(o)
    line = vocab.python_line(waiters[0])
    return Match(
        GIL_LOCK_INVERSION,
        HINTS[GIL_LOCK_INVERSION],
        (
            GilHolderOnNativeLock(o.tid, vocab.role(o, pid), o.futex_addr or 0, at, vocab.python_line(o)),
            GilWaiters(
                tuple(t.tid for t in waiters),
                vocab.first(waiters[0], vocab.GIL_WAIT),
                (waiters[0].tid, line) if line else None,
            ),
            HolderAmongGilWaiters(),
        ),
    )


@dataclass(frozen=True)
class _Runtime:
    """A native runtime whose worker threads a forked child waits for (one row of the table;
    `judge.words` words what the waiter waits for and why the workers are missing)."""

    name: str
    waits: Callable[[ThreadView], bool]
    """A thread waiting for the runtime's workers to do something."""
    worker: Callable[[ThreadView], bool]
    """One of the runtime's own worker threads."""
    where: Callable[[ThreadView], str]


_RUNTIMES = (
    _Runtime(
        "rayon",
        lambda t: not vocab.is_pool_thread(t) and vocab.has(t, vocab.LATCH),
        vocab.is_pool_thread,
        lambda t: vocab.first(t, vocab.LATCH),
    ),
    _Runtime(
        "OpenMP",
        runtimes.waits_for_omp_team,
        runtimes.is_omp_worker,
        lambda t: (
            vocab.first(t, runtimes.OMP_WAIT) if vocab.has(t, runtimes.OMP_WAIT) else "the OpenMP runtime"
        ),
    ),
    _Runtime(
        "tokio",
        lambda t: (
            vocab.has(t, vocab.TOKIO_PARK) and not vocab.is_tokio_thread(t) and not vocab.is_pool_thread(t)
        ),
        vocab.is_tokio_thread,
        lambda t: vocab.first(t, vocab.TOKIO_PARK),
    ),
)
"""The runtimes whose missing workers a forked child waits for: one rule, one row each."""


def _fork(threads: list[ThreadView], native_complete: bool) -> Match | None:
    """A wait for a runtime's worker threads that do not exist in this process (they were not
    forked). Needs every thread's native stack: absence is only known from a complete view."""
    if not native_complete:
        return None
    for rt in _RUNTIMES:
        waiting = [t for t in threads if rt.waits(t)]
        if waiting and not any(rt.worker(t) for t in threads):
            t = waiting[0]
            return Match(
                FORK_AFTER_INIT,
                HINTS[FORK_AFTER_INIT],
                (RuntimeWorkersMissing(t.tid, rt.where(t), rt.name, len(threads)), RuntimeNotForked(rt.name)),
            )
    return None


def livelock(finding: ProbeFinding, capture: Capture | None) -> Match:
    """Burning CPU with no progress: the busiest threads and where they are."""
    views = {t.tid: t for t in capture.threads} if capture else {}
    hot = sorted(finding.threads, key=lambda t: -t.cpu_s)[:3]
    facts: list[Fact] = [BurntNoProgress(finding.cpu_s, finding.window_s)]
    for t in hot:
        v = views.get(t.tid)
        facts.append(ThreadUsed(t.tid, t.cpu_s, vocab.where(v) if v else None))
    return Match(LIVELOCK, HINTS[LIVELOCK], tuple(facts))


@dataclass(frozen=True)
class Cause:
    """Why a worker died or raised, read from what it printed (not only Rust: a numba/LLVM
    cache error, a Python fatal error, the kernel's OOM killer)."""

    name: str
    line: str
    hint: str


_CAUSES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        re.compile(r"LLVM ERROR"),
        "LLVM/numba JIT error",
        "several processes compiled the same numba on-disk cache at once and one loaded another's "
        "half-written entry: warm the cache once before the workers start (gvlstress's warm-up does), "
        "or give each process its own NUMBA_CACHE_DIR; a poisoned cache stays poisoned until its "
        "*.nbi/*.nbc files are deleted",
    ),
    (
        re.compile(r"panicked at|thread '.*' panicked"),
        "Rust panic",
        "a Rust panic crossed into an abort: rerun with RUST_BACKTRACE=1 to see where",
    ),
    (
        re.compile(r"Fatal Python error"),
        "fatal Python error",
        "the interpreter aborted (often a native extension misusing the C API or the GIL): "
        "PYTHONFAULTHANDLER=1 prints every thread's Python stack",
    ),
    (
        re.compile(r"MemoryError|Cannot allocate memory|memory allocation of \d+ bytes failed|bad_alloc"),
        "out of memory",
        "the worker ran out of memory: fewer workers or smaller batches, or raise the memory limit",
    ),
    (
        re.compile(r"terminate called"),
        "C++ exception",
        "an uncaught C++ exception aborted the process: see the line above it",
    ),
    (
        re.compile(r"Segmentation fault|SIGSEGV|segfault"),
        "segmentation fault",
        "native code touched invalid memory: run one worker under gdb, or with PYTHONFAULTHANDLER=1",
    ),
)


def killed_hint(killer: str) -> str:
    """What to do about a worker whose killer is known."""
    if "OOM" in killer:
        return (
            "the wave's workers used more memory than the limit allows: fewer workers, smaller batches or "
            "smaller results, or more memory; the OOM killer picks the biggest process, often the one "
            "pickling or sending a large result"
        )
    return "the harness killed it on purpose (--kill-worker): what matters is how the pool took it"


def failure_cause(stderr: tuple[str, ...], sig: int | None) -> Cause | None:
    """The first telling line of a worker's stderr, named, with a hint; a bare SIGKILL that the
    harness did not send is most often the kernel's OOM killer."""
    for pattern, name, hint in _CAUSES:
        for line in stderr:
            if pattern.search(line):
                return Cause(name, line.strip(), hint)
    if sig == signal.SIGKILL:
        return Cause(
            "killed by SIGKILL",
            "",
            "gvlstress did not send it: most often the kernel's OOM killer (dmesg, memory.events of the "
            "cgroup); otherwise another process",
        )
    return None
