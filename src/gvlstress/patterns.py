"""Named failure patterns, recognised from frames and /proc facts alone.

The requested fault mode never reaches this module (a test runs a fault without telling the
harness): a pattern is named only from what the threads show. Each match carries the evidence
that decided it and a one-line remediation hint; nothing matching gives an honest
"unrecognised deadlock".
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass

from gvlstress.model import Capture, Frame, ProbeFinding, ProbeKind, ThreadView

# Pattern names (report.md, run.json and selftest use these words).
POOL_EXHAUSTION = "rayon pool exhaustion"
LOCK_ACROSS = "lock held across a parallel region"
LOCK_ORDER = "lock-order inversion"
GIL_HELD = "GIL held across a rayon region"
FORK_AFTER_INIT = "fork after pool start"
LIVELOCK = "livelock/spin"
CRASH = "crash"
NONDETERMINISTIC_ERROR = "nondeterministic error"
ERROR = "error in every worker"
UNRECOGNISED = "unrecognised deadlock"

HINTS = {
    POOL_EXHAUSTION: "run blocking stages (channel consumers, I/O) on their own ThreadPool::install or threads, "
    "never as jobs of the pool whose jobs wait for them",
    LOCK_ACROSS: "don't hold a lock across par_iter/join: copy what the jobs need out of the guard first",
    LOCK_ORDER: "take locks in one global order (or merge them into one lock, or use try_lock with back-off)",
    GIL_HELD: "release the GIL around the parallel call (PyO3: py.detach / allow_threads) and keep "
    "Python callbacks out of rayon jobs",
    FORK_AFTER_INIT: "start workers with spawn or forkserver, or don't touch the rayon pool before fork()",
    LIVELOCK: "the busiest frames spin on a condition nobody changes: use a blocking wait (with a timeout)",
    CRASH: "a job aborted or faulted: rerun with RUST_BACKTRACE=1, check dmesg, or run one worker under gdb",
    NONDETERMINISTIC_ERROR: "same code, same data, different outcome: look for a race in initialisation "
    "(lazy statics, concurrent open) around the traceback's frames",
    ERROR: "every worker raised the same way: a plain bug or bad input, see the traceback",
    UNRECOGNISED: "no known shape matched: read the futex groups and stacks below",
}

_LATCH = (
    "rayon_core::latch::LockLatch::wait_and_reset",
    "rayon_core::registry::Registry::in_worker_cold",
    "in_worker_cold",
    "wait_and_reset",
)
_IDLE = ("rayon_core::sleep::Sleep::sleep", "rayon_core::sleep::Sleep::no_work_found")
_GIL_WAIT = (
    "take_gil",
    "PyEval_RestoreThread",
    "PyEval_AcquireThread",
    "PyGILState_Ensure",
    "pyo3::gil::GILGuard::acquire",
    "pyo3::marker::Python::attach",
    "pyo3::internal::state::",
)
_MUTEX = (
    "Mutex::lock_contended",
    "__lll_lock_wait",
    "pthread_mutex_lock",
    "parking_lot::raw_mutex::RawMutex::lock_slow",
)
_CHANNEL = ("::mpsc::", "::mpmc::", "crossbeam_channel::", "flume::", "Sender", "Receiver")


@dataclass(frozen=True)
class Match:
    pattern: str
    hint: str
    evidence: tuple[str, ...]


def _names(t: ThreadView) -> list[str]:
    frames: tuple[Frame, ...] = t.native or (t.python.frames if t.python else ())
    return [f.name for f in frames]


def _has(t: ThreadView, needles: tuple[str, ...]) -> bool:
    return any(n in name for name in _names(t) for n in needles)


def _first(t: ThreadView, needles: tuple[str, ...]) -> str:
    return next((name for name in _names(t) if any(n in name for n in needles)), "?")


def _ids(threads: list[ThreadView]) -> str:
    tids = [t.tid for t in threads]
    return ", ".join(map(str, tids[:6])) + (f", ... ({len(tids)} in all)" if len(tids) > 6 else "")


def match(finding: ProbeFinding | None, capture: Capture | None) -> Match:
    """Name what a hung process shows. `capture` may lack stacks (then less can be named)."""
    from gvlstress.diagnose import role

    if finding is not None and finding.kind is ProbeKind.LIVELOCK:
        return _livelock(finding, capture)
    if capture is None or not any(t.native or t.python for t in capture.threads):
        return Match(
            UNRECOGNISED, HINTS[UNRECOGNISED] + " (no stacks were captured, so no pattern can be named)", ()
        )
    pid = capture.pid
    threads = list(capture.threads)
    pool = [t for t in threads if role(t, pid) == "rayon pool thread"]
    others = [t for t in threads if t not in pool]
    latch_waiters = [t for t in others if _has(t, _LATCH)]
    idle = [t for t in pool if _has(t, _IDLE)]
    busy = [t for t in pool if t not in idle]

    gil_waiters = [t for t in busy if _has(t, _GIL_WAIT)]
    owners = [t for t in threads if t.owns_gil]
    if gil_waiters and latch_waiters:
        owner = owners[0] if owners else latch_waiters[0]
        how = "py-spy: owns_gil" if owners else "inferred: py-spy view missing"
        return Match(
            GIL_HELD,
            HINTS[GIL_HELD],
            (
                f"thread {owner.tid} ({role(owner, pid)}) holds the GIL ({how}) and waits in "
                f"{_first(owner, _LATCH)} for its rayon jobs",
                f"{len(gil_waiters)} rayon pool thread(s) ({_ids(gil_waiters)}) inside those jobs wait for the GIL in "
                f"{_first(gil_waiters[0], _GIL_WAIT)}",
            ),
        )

    if not pool and latch_waiters:
        t = latch_waiters[0]
        return Match(
            FORK_AFTER_INIT,
            HINTS[FORK_AFTER_INIT],
            (
                f"the process has {len(threads)} OS thread(s) and no rayon pool thread, yet thread {t.tid} "
                f"waits in {_first(t, _LATCH)} for pool jobs",
                "rayon's pool threads were started before fork(); the child inherited the pool's bookkeeping "
                "but not its threads",
            ),
        )

    mutex_waiters = [t for t in threads if _has(t, _MUTEX) and t.futex_addr is not None]
    by_addr: dict[int, list[ThreadView]] = {}
    for t in mutex_waiters:
        by_addr.setdefault(t.futex_addr or 0, []).append(t)
    if len(by_addr) >= 2:
        groups = sorted(by_addr.items(), key=lambda kv: -len(kv[1]))
        return Match(
            LOCK_ORDER,
            HINTS[LOCK_ORDER],
            (
                f"threads wait on {len(groups)} different mutexes: "
                + "; ".join(f"{addr:#x}: {len(ts)} thread(s) ({_ids(ts)})" for addr, ts in groups),
                "each mutex is held by a thread that is itself waiting for another one of them "
                "(no thread outside these groups can release them)",
            ),
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
                    f"{len(waiters)} thread(s) ({_ids(waiters)}) wait for one mutex at {addr:#x} in "
                    f"{_first(waiters[0], _MUTEX)}",
                    f"thread {h.tid} ({role(h, pid)}) does not wait for it but waits in {_first(h, _LATCH)} "
                    "for the very jobs that do: it holds the lock across the parallel region",
                ),
            )

    channel_blocked = [t for t in busy if _has(t, _CHANNEL)]
    if (
        pool
        and not idle
        and latch_waiters
        and len(channel_blocked) + len([t for t in busy if t.futex_addr]) >= len(pool)
    ):
        what = _first(channel_blocked[0], _CHANNEL) if channel_blocked else "a blocking wait"
        return Match(
            POOL_EXHAUSTION,
            HINTS[POOL_EXHAUSTION],
            (
                f"all {len(pool)} rayon pool threads are inside jobs, blocked in {what}"
                + (f" ({len(channel_blocked)} in channel operations)" if channel_blocked else ""),
                "no pool thread is idle in rayon's sleep, so the job that would unblock them (e.g. the channel's "
                "consumer) can never run",
                f"thread {latch_waiters[0].tid} waits in {_first(latch_waiters[0], _LATCH)} for the pool",
            ),
        )
    return Match(UNRECOGNISED, HINTS[UNRECOGNISED], ())


def _livelock(finding: ProbeFinding, capture: Capture | None) -> Match:
    from gvlstress.diagnose import where

    views = {t.tid: t for t in capture.threads} if capture else {}
    hot = sorted(finding.threads, key=lambda t: -t.cpu_s)[:3]
    lines = [f"{finding.cpu_s:.2f} CPU-s burnt over {finding.window_s:.2f}s with no progress"]
    for t in hot:
        v = views.get(t.tid)
        lines.append(f"thread {t.tid} used {t.cpu_s:.2f}s" + (f" in {where(v)}" if v else ""))
    return Match(LIVELOCK, HINTS[LIVELOCK], tuple(lines))


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
