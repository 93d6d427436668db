"""The one vocabulary of frames, thread roles and idle shapes that judging and reporting share.

Pure functions over `ThreadView`s: what a frame says (a rayon latch, a GIL wait, a lock acquire,
an idle pool), who a thread is (main, rayon pool, Python, native), and where it sits. diagnose,
patterns and the Markdown reporter import this module; it imports nothing of theirs.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from gvlstress.model import Frame, ThreadView, WaitKind

# Frames that say "this thread sleeps" without saying on what: skipped when naming a wait.
_PLUMBING = re.compile(
    r"^(syscall|__?futex\w*|futex_wait\w*|__lll_lock_wait\w*|pthread_cond_\w*|__pthread_\w*|"
    r"___pthread_\w*|__GI_\w*|atomic_\w*|load|get|wait<.*>|0x[0-9a-f]+|"
    r"__new_sem_wait\w*|do_futex_wait\w*|sem_(clock|timed)?wait\w*|"
    r"std::sys::(pal::unix::futex|sync::condvar::futex::Condvar|sync::mutex::futex::Mutex::lock$)\S*|"
    r"std::sys::sync::condvar::\S*|std::sync::(poison::)?condvar::Condvar::wait\S*|"
    r"std::thread::(park\S*|local::\S*)|std::sys::pal::unix::thread_parking\S*|"
    r"std::sys::sync::thread_parking::\S*|lock(<.*>)?)(\.constprop\.\d+|\.isra\.\d+|\.part\.\d+)*$"
)
POOL_FRAMES = (
    "rayon_core::registry::ThreadBuilder::run",
    "rayon_core::registry::main_loop",
    "rayon_core::registry::WorkerThread::wait_until_cold",
)
LATCH = (
    "rayon_core::latch::LockLatch::wait_and_reset",
    "rayon_core::registry::Registry::in_worker_cold",
    "in_worker_cold",
    "wait_and_reset",
)
RAYON_IDLE = ("rayon_core::sleep::Sleep::sleep", "rayon_core::sleep::Sleep::no_work_found")
GIL_WAIT = (
    "take_gil",
    "PyEval_RestoreThread",
    "PyEval_AcquireThread",
    "PyGILState_Ensure",
    "pyo3::gil::GILGuard::acquire",
    "pyo3::marker::Python::attach",
    "pyo3::internal::state::",
)
MUTEX = (
    "Mutex::lock_contended",
    "__lll_lock_wait",
    "pthread_mutex_lock",
    "parking_lot::raw_mutex::RawMutex::lock_slow",
)
ONCE = ("Once::call", "once_cell::", "OnceLock", "LazyLock", "OnceCell", "lazy_static")
"""One-time initialisation: its waiters block until the initialising thread finishes."""
CHANNEL = ("::mpsc::", "::mpmc::", "crossbeam_channel::", "flume::", "Sender", "Receiver")
PY_LOCK_ACQUIRE = (
    "PyThread_acquire_lock_timed",
    "lock_PyThread_acquire_lock",
    "rlock_acquire",
    "acquire_timed",
)

TOKIO_PARK = ("tokio::runtime::park", "tokio::runtime::runtime::Runtime::block_on", "Runtime::block_on")
_TOKIO_WORKER = (
    "tokio::runtime::scheduler::multi_thread::worker",
    "tokio::runtime::io::driver",
    "tokio::runtime::blocking::pool",
    "tokio::runtime::scheduler::multi_thread::park",
)

_ASLEEP = frozenset({WaitKind.LOCK, WaitKind.TIMED})
_ASLEEP_OR_POLL = _ASLEEP | {WaitKind.POLL}
_ANY = frozenset(WaitKind)
# Native threads that sit in a wait by design: (frame needles, what, the waits that are idle).
_IDLE_NATIVE: tuple[tuple[tuple[str, ...], str, frozenset[WaitKind]], ...] = (
    (RAYON_IDLE, "idle rayon pool thread", _ASLEEP),
    (
        (
            "tokio::runtime::park",
            "tokio::runtime::scheduler::multi_thread::park",
            "tokio::runtime::scheduler::multi_thread::worker::Context::park",
            "tokio::runtime::io::driver::Driver::turn",
            "tokio::runtime::blocking::pool::Inner::run",
        ),
        "idle tokio runtime thread",
        _ASLEEP_OR_POLL,
    ),
    (("background_thread_entry", "background_work"), "jemalloc background thread", _ASLEEP),
    (("blas_thread_server",), "OpenBLAS worker thread", _ANY),
    (("polars_async::executor::park_group",), "idle polars async executor thread", _ASLEEP),
    (("gomp_thread_start",), "OpenMP worker thread", _ASLEEP),
)
# comm names set by runtimes (prctl): recognised even without stacks.
_IDLE_COMM: tuple[tuple[str, str, frozenset[WaitKind]], ...] = (
    ("jemalloc_bg_thd", "jemalloc background thread", _ASLEEP),
    ("tokio-runtime-w", "tokio runtime thread", _ASLEEP_OR_POLL),
    ("tokio-rt-worker", "tokio runtime thread", _ASLEEP_OR_POLL),
    ("async-executor-", "polars async executor thread", _ASLEEP),
    ("polars-ooc-clea", "polars spill cleaner thread", _ASLEEP),
)
# (file suffix, function, what, waits): Python threads that wait for work by design.
_IDLE_PYTHON: tuple[tuple[str, str, str, frozenset[WaitKind]], ...] = (
    ("concurrent/futures/thread.py", "_worker", "idle ThreadPoolExecutor worker", _ASLEEP),
    (
        "concurrent/futures/process.py",
        "_process_worker",
        "idle ProcessPoolExecutor worker",
        frozenset({WaitKind.IO}),
    ),
    ("multiprocessing/queues.py", "_feed", "idle multiprocessing queue feeder thread", _ASLEEP),
    (
        "multiprocessing/resource_tracker.py",
        "main",
        "multiprocessing resource tracker",
        frozenset({WaitKind.IO}),
    ),
    ("multiprocessing/connection.py", "wait", "executor manager waiting on its pipes", _ASLEEP_OR_POLL),
    ("multiprocessing/pool.py", "worker", "idle multiprocessing.Pool worker", _ASLEEP | {WaitKind.IO}),
    ("multiprocessing/pool.py", "_handle_workers", "multiprocessing.Pool manager thread", _ASLEEP),
    ("multiprocessing/pool.py", "_handle_tasks", "multiprocessing.Pool task handler", _ASLEEP),
    (
        "multiprocessing/pool.py",
        "_handle_results",
        "multiprocessing.Pool result handler",
        _ASLEEP_OR_POLL | {WaitKind.IO},
    ),
)
# Where a launcher waits for a process pool's results (a Future, an AsyncResult, a map): what
# ends that wait is the pool's result-reading thread, fed by the worker processes.
_RESULT_WAITS = (
    ("concurrent/futures/_base.py", "result"),
    ("concurrent/futures/_base.py", "wait"),
    ("concurrent/futures/_base.py", "as_completed"),
    ("concurrent/futures/_base.py", "_result_or_cancel"),
    ("multiprocessing/pool.py", "wait"),
    ("multiprocessing/pool.py", "get"),
    ("multiprocessing/pool.py", "next"),
    ("multiprocessing/pool.py", "map"),
    ("multiprocessing/pool.py", "starmap"),
)
# The thread that reads a process pool's results from its workers: (file, function).
_RESULT_READERS = (
    ("concurrent/futures/process.py", "run"),  # _ExecutorManagerThread (3.9+)
    ("concurrent/futures/process.py", "wait_result_broken_or_wakeup"),
    ("concurrent/futures/process.py", "_queue_management_worker"),  # the manager thread before 3.9
    ("multiprocessing/pool.py", "_handle_results"),
)
# Python waits that only another thread ends: Condition/Event wait, Thread.join, Queue get/join.
_PY_WAITS = (
    ("threading.py", "wait"),
    ("threading.py", "_wait_for_tstate_lock"),
    ("threading.py", "join"),
    ("queue.py", "get"),
    ("queue.py", "put"),
    ("queue.py", "join"),
)


def all_names(t: ThreadView) -> list[str]:
    """Native frames (from the native tool) plus py-spy's own (it interleaves native ones)."""
    py = [f.name for f in t.python.frames] if t.python else []
    return [f.name for f in t.native] + py


def has(t: ThreadView, needles: tuple[str, ...]) -> bool:
    return any(n in name for name in all_names(t) for n in needles)


def first(t: ThreadView, needles: tuple[str, ...]) -> str:
    return next((name for name in all_names(t) if any(n in name for n in needles)), "?")


def python_frames(t: ThreadView) -> tuple[Frame, ...]:
    """py-spy's frames that are Python code (a file ending in .py), innermost first."""
    if t.python is None:
        return ()
    return tuple(f for f in t.python.frames if f.file and f.file.endswith(".py"))


def python_at(t: ThreadView, suffix: str, function: str, depth: int = 3) -> bool:
    """Is one of the `depth` innermost Python frames `function` in a file ending in `suffix`?
    A ``multiprocessing/`` suffix also matches its forks that keep the file names
    (``multiprocess/``: pathos)."""
    suffixes = (suffix, "multiprocess/" + suffix[16:]) if suffix.startswith("multiprocessing/") else (suffix,)
    return any(
        (f.name == function or f.name.endswith("." + function)) and (f.file or "").endswith(suffixes)
        for f in python_frames(t)[:depth]
    )


STDLIB_WAITS = ("/threading.py", "/queue.py")
FUTURE_WAITS = ("/threading.py", "concurrent/futures/_base.py")


def outer_python(t: ThreadView, skip: tuple[str, ...] = STDLIB_WAITS) -> ThreadView:
    """The same thread without the stdlib wait frames (files ending in `skip`) on top, so the
    line shown is the caller's (``worker (app.py:12)``, not ``wait (threading.py:327)``)."""
    if t.python is None:
        return t
    frames = t.python.frames
    keep = [
        i
        for i, f in enumerate(frames)
        if (f.file or "").endswith(".py") and not (f.file or "").endswith(skip)
    ]
    if not keep:
        return t
    return replace(t, python=replace(t.python, frames=frames[keep[0] :]))


def python_line(t: ThreadView) -> str | None:
    """The innermost Python frame as 'function (file:line)'."""
    frames = python_frames(t)
    if not frames:
        return None
    f = frames[0]
    return f"{f.name} ({f.file}:{f.line})" if f.line else f"{f.name} ({f.file})"


def telling_frame(frames: tuple[Frame, ...]) -> str | None:
    """The innermost frame that says what a thread waits for (not libc/futex plumbing)."""
    for f in frames:
        if not _PLUMBING.match(f.name) and f.name not in ("??", ""):
            return f.name
    return None


def is_pool_frame(f: Frame) -> bool:
    """A frame only rayon's pool threads have: eu-stack names it fully, gdb's inlined frames
    by short name with the rayon-core source file, and the spawn closure by its generic."""
    if f.name.startswith(POOL_FRAMES):
        return True
    if f.name in ("main_loop", "wait_until_cold") and f.file and f.file.endswith("registry.rs"):
        return True
    return "rayon_core::registry::" in f.name and ("spawn" in f.name or "ThreadBuilder" in f.name)


_POOL_COMM = re.compile(r"^(rayon|polars|rayon-worker)-\d+$")
"""Pool threads some libraries name (polars: ``polars-0``): known without any stack."""


def is_pool_thread(t: ThreadView) -> bool:
    return (
        any(is_pool_frame(f) for f in t.native)
        or (t.python is not None and any(is_pool_frame(f) for f in t.python.frames))
        or bool(_POOL_COMM.match(t.comm))
    )


def role(t: ThreadView, pid: int) -> str:
    """Who a thread is: main, a rayon pool thread, another Python thread, or a native thread."""
    if t.tid == pid:
        return "main thread"
    if is_pool_thread(t):
        return "rayon pool thread"
    if reads_pool_results(t):
        return "the pool's result reader"
    if t.python is not None:
        return "Python thread"
    return "native thread"


def idle_reason(t: ThreadView, kind: WaitKind) -> str | None:
    """Why a thread that waits is idle by design (a pool with no work, a runtime's background
    thread, an executor worker waiting for a task), or None when nothing says so. A shape is
    idle only in its own kind of wait: a queue feeder blocked in write() is not idle."""
    names = all_names(t)
    for needles, what, kinds in _IDLE_NATIVE:
        if kind in kinds and any(n in name for name in names for n in needles):
            return what
    for suffix, function, what, kinds in _IDLE_PYTHON:
        if kind in kinds and python_at(t, suffix, function, depth=4):
            if suffix.endswith("queues.py") and not python_at(t, "threading.py", "wait", depth=1):
                continue  # the feeder is idle only while it waits for items, not while it writes
            return what
    return idle_by_comm(t.comm, kind)


def idle_by_comm(comm: str, kind: WaitKind) -> str | None:
    """Idle by the name a runtime gave its thread (works without stacks)."""
    for prefix, what, kinds in _IDLE_COMM:
        if kind in kinds and comm.startswith(prefix):
            return what
    return None


def is_tokio_thread(t: ThreadView) -> bool:
    """A thread of a tokio runtime (a worker, the I/O driver, the blocking pool), not a thread
    that merely waits in ``block_on`` for it."""
    return has(t, _TOKIO_WORKER) or t.comm.startswith(("tokio-runtime-w", "tokio-rt-worker"))


def python_waits(t: ThreadView) -> bool:
    """The innermost Python frames are a wait only another thread ends (Condition.wait, join)."""
    return any(python_at(t, suffix, function, depth=2) for suffix, function in _PY_WAITS)


def joins_thread(t: ThreadView) -> bool:
    """Blocked in Thread.join (3.13 shows ``join`` innermost; 3.11-3.12 ``_wait_for_tstate_lock``)."""
    return python_at(t, "threading.py", "_wait_for_tstate_lock", 2) or python_at(t, "threading.py", "join", 1)


def is_gil_wait(t: ThreadView) -> bool:
    return has(t, GIL_WAIT)


def is_lock_acquire(t: ThreadView) -> bool:
    """Blocked in a threading.Lock/RLock acquire (native frames of py-spy or the native tool)."""
    return has(t, PY_LOCK_ACQUIRE)


def where(t: ThreadView) -> str:
    """Where a thread sits, from the best view available: for a thread running Python code
    and blocked in C (a lock acquire, a read) its Python line says more than CPython's frame;
    for one blocked in Rust or C++ (a rayon latch) the native frame does."""
    name = telling_frame(t.native) if t.native else None
    if python_frames(t) and (name is None or "::" not in name):
        line = python_line(outer_python(t))
        if line:
            return line
    if name:
        return name
    if t.python and t.python.frames:
        line = python_line(t)
        top = t.python.frames[0]
        return line or telling_frame(t.python.frames) or top.name
    return t.wchan or t.syscall or t.state


def waits_for_pool_results(t: ThreadView) -> bool:
    """Waiting for a Future, an AsyncResult or a map of a pool (innermost few Python frames)."""
    return any(python_at(t, suffix, function, depth=4) for suffix, function in _RESULT_WAITS)


def reads_pool_results(t: ThreadView) -> bool:
    """The thread that reads a process pool's results from its workers (anywhere on its stack:
    it sits under the connection and selector frames it waits in)."""
    return any(python_at(t, suffix, function, depth=12) for suffix, function in _RESULT_READERS)


def waits_on_shared_lock(t: ThreadView) -> bool:
    """Blocked in a multiprocessing lock, semaphore, condition, event or barrier (SemLocks in
    shared memory): a wait another process ends, as an idle pool worker waits on its call
    queue's lock, or a JoinableQueue.join() waits for a consumer process's task_done()."""
    return any(
        python_at(t, "multiprocessing/synchronize.py", fn, depth=2) for fn in ("__enter__", "acquire", "wait")
    )


_FROZEN_IMPORT = "<frozen importlib._bootstrap"


def waits_for_module_lock(t: ThreadView) -> bool:
    """Blocked on a module's import lock (importlib's _ModuleLock.acquire, a frozen frame)."""
    frames = tuple(f for f in (t.python.frames if t.python else ()) if f.line)[:2]  # Python frames only
    return any(
        (f.file or "").startswith(_FROZEN_IMPORT) and f.name.endswith(("_ModuleLock.acquire", "acquire"))
        for f in frames
    )


def module_being_imported(t: ThreadView) -> Frame | None:
    """The innermost module whose top-level code this thread runs for an import (its frame sits
    right under importlib's frozen frames): the thread holds that module's import lock."""
    frames = t.python.frames if t.python else ()
    for inner, outer in itertools.pairwise(frames):
        if inner.name == "<module>" and (outer.file or "").startswith(_FROZEN_IMPORT):
            return inner
    return None


def is_thread_pool_worker(t: ThreadView) -> bool:
    """A concurrent.futures ThreadPoolExecutor worker (busy in a task or idle)."""
    return python_at(t, "concurrent/futures/thread.py", "_worker", depth=16)


def line(t: ThreadView) -> str:
    """Where a thread is: its innermost Python line, else its native frame."""
    return python_line(t) or where(t)
