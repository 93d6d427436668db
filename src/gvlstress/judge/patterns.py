"""Named failure patterns, recognised from frames and /proc facts alone.

The requested fault mode never reaches this module (a test runs a fault without telling the
harness): a pattern is named only from what the threads show. Each match carries the evidence
that decided it and a one-line remediation hint; nothing matching gives an honest
"unrecognised deadlock". Crash and error causes are read from what the worker printed.
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass, replace

from gvlstress.judge import vocab
from gvlstress.model import Capture, ProbeFinding, ThreadView

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
PY_LOCK_ORDER = "lock-order inversion (threading locks)"
JOIN_BLOCKED = "join on a blocked thread"
LOST_WAKEUP = "lost wakeup (a wait nobody can notify)"
JOIN_BEFORE_DRAIN = "join before draining a pipe"
EXECUTOR_WEDGED = "executor wedged by a worker killed while sending its result"
PIPE_CYCLE = "cycle of pipe reads across processes"
IMPORT_LOCK = "import lock held across a wait"
GIL_LOCK_INVERSION = "GIL <-> native lock inversion"
FORK_HELD_LOCK = "fork while another thread held a lock"
EXIT_HANG = "interpreter exit waits for a thread that never ends"
QUEUE_JOIN = "Queue.join() without task_done()"
THREAD_POOL_EXHAUSTION = "thread pool exhaustion (tasks wait on tasks queued behind them)"

HINTS = {
    FORK_HELD_LOCK: "fork() copies a lock in whatever state it is, but only the forking thread: start "
    "children with spawn or forkserver, or take the lock around fork() (os.register_at_fork(before="
    "lock.acquire, after_in_parent=lock.release, after_in_child=lock.release)); never take locks in a "
    "preexec_fn",
    EXIT_HANG: "the interpreter joins every non-daemon thread at exit: end the thread (a stop event, a "
    "sentinel on its queue) before main returns, or make it a daemon if it holds nothing that must be "
    "flushed",
    QUEUE_JOIN: "call q.task_done() once for every q.get() (in a finally), or wait on something else "
    "than join()",
    GIL_LOCK_INVERSION: "release the GIL before blocking on a native lock (PyO3: py.detach / allow_threads "
    "around lock() or a OnceLock's init), and never wait for the GIL while holding a lock a GIL holder may "
    "take; for lazy initialisation use PyO3's GILOnceCell / once-with-py helpers",
    IMPORT_LOCK: "a module's top-level code waits (join, result, a lock) for a thread that imports that "
    "same module, and the import lock is held until the top-level code returns: start threads and wait for "
    "them in a function called after the import, never at import time",
    THREAD_POOL_EXHAUSTION: "a task of a pool waits for another task of the same pool, and every worker is "
    "such a waiting task, so the awaited tasks never start: run the inner work inline, give it its own "
    "executor, or size the pool above the nesting depth",
    PIPE_CYCLE: "each process reads a pipe only the next one writes, and that one is reading too: break the "
    "cycle (one side writes before it reads, or reads with a timeout / from a selector on both pipes)",
    POOL_EXHAUSTION: "run blocking stages (channel consumers, I/O) on their own ThreadPool::install or threads, "
    "never as jobs of the pool whose jobs wait for them",
    LOCK_ACROSS: "don't hold a lock across par_iter/join: copy what the jobs need out of the guard first",
    LOCK_ORDER: "take locks in one global order (or merge them into one lock, or use try_lock with back-off)",
    GIL_HELD: "release the GIL around the parallel call (PyO3: py.detach / allow_threads) and keep "
    "Python callbacks out of rayon jobs",
    FORK_AFTER_INIT: "start workers with spawn or forkserver, or don't touch the pool before fork()",
    LIVELOCK: "the busiest frames spin on a condition nobody changes: use a blocking wait (with a timeout)",
    CRASH: "a job aborted or faulted: rerun with RUST_BACKTRACE=1, check dmesg, or run one worker under gdb",
    NONDETERMINISTIC_ERROR: "same code, same data, different outcome: look for a race in initialisation "
    "(lazy statics, concurrent open) around the traceback's frames",
    ERROR: "every worker raised the same way: a plain bug or bad input, see the traceback",
    UNRECOGNISED: "no known shape matched: read the futex groups and stacks below",
    PY_LOCK_ORDER: "take the locks in one global order (e.g. sort by id, or one lock for both), "
    "or acquire(timeout=...) and back off",
    JOIN_BLOCKED: "the joined thread is itself blocked: fix what it waits for, or join with a timeout "
    "and report it",
    LOST_WAKEUP: "notify under the same lock after changing the state, and wait in a loop on a predicate "
    "(Condition.wait_for), with a timeout",
    JOIN_BEFORE_DRAIN: "read the child's results (queue.get / pipe) before join(); a child cannot exit while "
    "its queue's feeder is blocked writing to a full pipe",
    EXECUTOR_WEDGED: "keep results small: write large ones (arrays, weights) to files and return their paths; "
    "leave the workers memory headroom (the OOM killer picks the biggest process, and a task's memory "
    "peaks while it pickles and sends its result); CPython's ProcessPoolExecutor does not notice a "
    "worker that dies in the middle of sending a result (its manager thread waits for the rest of the "
    "frame forever), so put a timeout on the results you wait for",
}


@dataclass(frozen=True)
class Match:
    pattern: str
    hint: str
    evidence: tuple[str, ...]


def _ids(threads: list[ThreadView]) -> str:
    tids = [t.tid for t in threads]
    return ", ".join(map(str, tids[:6])) + (f", ... ({len(tids)} in all)" if len(tids) > 6 else "")


def _line(t: ThreadView) -> str:
    return vocab.python_line(t) or vocab.where(t)


def unrecognised(capture: Capture | None) -> Match:
    """The honest answer when no shape matched."""
    if capture is None or not any(t.native or t.python for t in capture.threads):
        return Match(
            UNRECOGNISED, HINTS[UNRECOGNISED] + " (no stacks were captured, so no pattern can be named)", ()
        )
    return Match(UNRECOGNISED, HINTS[UNRECOGNISED], ())


def match(finding: ProbeFinding | None, capture: Capture | None) -> Match | None:
    """Name the shape of a closed wait set, or None. `capture` may lack views (less is named).

    Absence is claimed only from a complete view: "no pool thread" needs the native tool to have
    seen every thread, so a missing native view never reads as "fork after pool start".
    """
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
        how = "py-spy: owns_gil" if owners else "inferred: py-spy view missing"
        return Match(
            GIL_HELD,
            HINTS[GIL_HELD],
            (
                f"thread {owner.tid} ({vocab.role(owner, pid)}) holds the GIL ({how}) and waits in "
                f"{vocab.first(owner, vocab.LATCH)} for its rayon jobs",
                f"{len(gil_waiters)} rayon pool thread(s) ({_ids(gil_waiters)}) inside those jobs wait for "
                f"the GIL in {vocab.first(gil_waiters[0], vocab.GIL_WAIT)}",
            ),
        )
    inversion = _gil_lock_inversion(threads, owners, pid)
    if inversion is not None:
        return inversion
    fork = _fork(threads, others, latch_waiters, pool, native_complete)
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
                    f"{vocab.first(waiters[0], vocab.MUTEX)}",
                    f"thread {h.tid} ({vocab.role(h, pid)}) does not wait for it but waits in "
                    f"{vocab.first(h, vocab.LATCH)} for the very jobs that do: it holds the lock across "
                    "the parallel region",
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
                f"all {len(pool)} rayon pool threads are inside jobs, blocked in {what}"
                + (f" ({len(channel_blocked)} in channel operations)" if channel_blocked else ""),
                "no pool thread is idle in rayon's sleep, so the job that would unblock them (e.g. the "
                "channel's consumer) can never run",
                f"thread {latch_waiters[0].tid} waits in {vocab.first(latch_waiters[0], vocab.LATCH)} for the pool",
            ),
        )
    return _python(threads, pid, capture.forked_from)


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
    return Match(
        GIL_LOCK_INVERSION,
        HINTS[GIL_LOCK_INVERSION],
        (
            f"thread {o.tid} ({vocab.role(o, pid)}) holds the GIL (py-spy: owns_gil) and waits on a native lock "
            f"(futex {o.futex_addr or 0:#x}) in {at}"
            + (f", called from {line}" if (line := vocab.python_line(o)) else ""),
            f"{len(waiters)} thread(s) ({_ids(waiters)}) wait for the GIL in {vocab.first(waiters[0], vocab.GIL_WAIT)}"
            + (
                f", e.g. thread {waiters[0].tid} at {line}" if (line := vocab.python_line(waiters[0])) else ""
            ),
            "the lock's holder can only be one of the GIL's waiters (every other thread is blocked too): it "
            "waits for the GIL, the GIL's holder waits for its lock",
        ),
    )


def _fork(
    threads: list[ThreadView],
    others: list[ThreadView],
    latch_waiters: list[ThreadView],
    pool: list[ThreadView],
    native_complete: bool,
) -> Match | None:
    """A wait for pool threads that do not exist in this process (they were not forked)."""
    if not native_complete:
        return None
    if not pool and latch_waiters:
        t = latch_waiters[0]
        return Match(
            FORK_AFTER_INIT,
            HINTS[FORK_AFTER_INIT],
            (
                f"the process has {len(threads)} OS thread(s), the native stacks of all of them, and no rayon "
                f"pool thread, yet thread {t.tid} waits in {vocab.first(t, vocab.LATCH)} for pool jobs",
                "rayon's pool threads were started before fork(); the child inherited the pool's bookkeeping "
                "but not its threads",
            ),
        )
    omp = [t for t in threads if vocab.waits_for_omp_team(t)]
    if omp and not any(vocab.is_omp_worker(t) for t in threads):
        t = omp[0]
        return Match(
            FORK_AFTER_INIT,
            HINTS[FORK_AFTER_INIT],
            (
                f"thread {t.tid} waits in "
                + (vocab.first(t, vocab.OMP_WAIT) if vocab.has(t, vocab.OMP_WAIT) else "the OpenMP runtime")
                + " for an OpenMP team, and none of the "
                f"process's {len(threads)} thread(s) (native stacks of all of them) is an OpenMP worker",
                "the OpenMP runtime's pool was started before fork(); the child inherited its bookkeeping but "
                "not its threads (libgomp is not fork-safe: set the pool aside with spawn/forkserver, or "
                "OMP_NUM_THREADS=1 in the parent)",
            ),
        )
    parked = [t for t in others if vocab.has(t, vocab.TOKIO_PARK) and not vocab.is_tokio_thread(t)]
    runtime = [t for t in threads if vocab.is_tokio_thread(t)]
    if parked and not runtime:
        t = parked[0]
        return Match(
            FORK_AFTER_INIT,
            HINTS[FORK_AFTER_INIT],
            (
                f"thread {t.tid} waits in {vocab.first(t, vocab.TOKIO_PARK)} for an async runtime, and none of "
                f"the process's {len(threads)} thread(s) (native stacks of all of them) belongs to it",
                "the runtime's threads were started before fork(); the child inherited its state but not its "
                "threads",
            ),
        )
    return None


def _python(threads: list[ThreadView], pid: int, forked_from: int | None = None) -> Match | None:
    """Python-level shapes, from py-spy's frames (Python lines plus its native frames)."""
    py = [t for t in threads if t.python is not None]
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
                f"thread {acquirer.tid} waits to acquire a lock at {_line(vocab.outer_python(acquirer))}, and no "
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
                        f"{t.tid} ({t.python.name if t.python else '?'}) at {_line(vocab.outer_python(t))}"
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
                f"{_line(vocab.outer_python(joining))}: it returns when every item got a task_done()",
                (
                    f"{len(getters)} consumer(s) ({_ids(getters)}) wait in Queue.get() for more items at "
                    f"{_line(vocab.outer_python(getters[0]))}: the queue is drained, yet tasks are unfinished"
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
                f"thread {t.tid} ({t.python.name if t.python else '?'}) at {_line(t)}, lock {t.futex_addr or 0:#x}"
                for t in acquirers[:6]
            ),
            *(f"thread {t.tid} waits in join() at {_line(vocab.outer_python(t))}" for t in joiners[:2]),
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
                f"{_line(vocab.outer_python(w))}, and no thread is left to notify it",
                *(
                    f"thread {j.tid} ({vocab.role(j, pid)}) waits in Thread.join() at "
                    f"{_line(vocab.outer_python(j))}: it waits for the wakeup too"
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
                f"thread {j.tid} waits in Thread.join() at {_line(vocab.outer_python(j))}",
                f"the {len(rest)} other Python thread(s) are blocked themselves: "
                + (
                    "; ".join(f"{t.tid} at {_line(vocab.outer_python(t))}" for t in rest[:4]) or "none exists"
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
                f"{_line(vocab.outer_python(w))}",
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
            f"_ModuleLock.acquire) at {_line(vocab.outer_python(b))}",
            f"thread {h.tid} ({vocab.role(h, pid)}) holds it: it is running the top-level code of "
            f"{module.file or '?'} for an import, and waits at {_line(vocab.outer_python(h))}",
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
            f"all {len(workers)} thread-pool workers ({_ids(workers)}) are inside tasks that wait for a "
            f"future, e.g. thread {workers[0].tid} at {_line(_caller(workers[0]))}",
            "no worker is free to run the tasks they wait for, which are queued behind them",
            *(
                f"thread {t.tid} ({vocab.role(t, pid)}) waits for one of them at {_line(_caller(t))}"
                for t in others[:2]
            ),
        ),
    )


def _caller(t: ThreadView) -> ThreadView:
    """The thread without the concurrent.futures and threading frames on top: the line that waits."""
    if t.python is None:
        return t
    frames = t.python.frames
    skip = ("/threading.py", "concurrent/futures/_base.py")
    keep = [
        i
        for i, f in enumerate(frames)
        if (f.file or "").endswith(".py") and not (f.file or "").endswith(skip)
    ]
    return replace(t, python=replace(t.python, frames=frames[keep[0] :])) if keep else t


def livelock(finding: ProbeFinding, capture: Capture | None) -> Match:
    """Burning CPU with no progress: the busiest threads and where they are."""
    views = {t.tid: t for t in capture.threads} if capture else {}
    hot = sorted(finding.threads, key=lambda t: -t.cpu_s)[:3]
    lines = [f"{finding.cpu_s:.2f} CPU-s burnt over {finding.window_s:.2f}s with no progress"]
    for t in hot:
        v = views.get(t.tid)
        lines.append(f"thread {t.tid} used {t.cpu_s:.2f}s" + (f" in {vocab.where(v)}" if v else ""))
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
