"""The verdict rules as tables of recorded shapes (tests/support/corpus/FACTS.md).

Each case is two /proc samples of a real process shape, written as the syscall lines, states,
CPU and context switches that were recorded, plus (where the rule needs them) the stacks py-spy
and the native tool showed. `judge` runs on /proc alone; `decide` adds the stacks. Both the run
path (a progress signal: the heartbeat went quiet) and inspect (none) are checked.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass, field, replace

import pytest

from gvlstress.judge import names, patterns
from gvlstress.judge.tree import link_tree
from gvlstress.judge.verdict import INSPECT_VERDICT, decide, judge
from gvlstress.model import (
    Capture,
    Frame,
    ProbeFinding,
    ProbeKind,
    ProcSample,
    PyThread,
    ThreadSample,
    ThreadView,
    ToolRun,
    Verdict,
    WaitKind,
)
from gvlstress.probes.procfs import parse_syscall_args

PID = 1000
SLEEP = "230 0x1 0x1 0x7ffe144b26d0 0x0 0x0 0x0 0x7ffe144b2690 0x7fcf74aed545"
LOCK = "202 0x{addr:x} 0x189 0x0 0x0 0x0 0xffffffff 0x7fcf743a7950 0x7fcf74aa3f16"
SHARED_LOCK = "202 0x{addr:x} 0x109 0x0 0x0 0x0 0xffffffff 0x7fcf743a7950 0x7fcf74aa3f16"
RUST_LOCK = "202 0x{addr:x} 0x89 0x0 0x0 0x0 0xffffffff 0x7fcf743a7950 0x7fcf74aa3f16"
TIMED = "202 0x{addr:x} 0x89 0x0 0x7ffd00001000 0x0 0xffffffff 0x7fcf743a7950 0x7fcf74aa3f16"
READ = "0 0x3 0x7f2e180d68d0 0x1 0x55ed5a30b2d0 0x0 0x0 0x7fff0cf48e70 0x7f2e189162ec"
WRITE = "1 0x4 0x7f2e180d68d0 0xa00009 0x0 0x0 0x0 0x7fff0cf48e70 0x7f2e189162ec"
ACCEPT = "288 0x3 0x7ffd8ea856b0 0x7ffd8ea856a4 0x80000 0x0 0x0 0x7ffd8ea85678 0x7fee93728f63"
EPOLL = "232 0x5 0x7f0000001000 0x400 0xffffffff 0x0 0x0 0x7f0000000ff0 0x7f0000000fe0"
WAIT4 = "61 0x{child:x} 0x7ffd00002000 0x0 0x0 0x0 0x0 0x7ffd00001ff0 0x7f0000000fe0"
FLOCK = "73 0x3 0x2 0x0 0x0 0x0 0x0 0x7ffd8ea85678 0x7fee93728f63"
RESTART = "219 0x7faf7c68a0f0 0x3 0xffffffff 0x0 0x0 0x7faf7d54e6e8 0x7faf7c66ac00 0x7faf7cf1a26f"
LATCH = (
    "syscall",
    "rayon_core::latch::LockLatch::wait_and_reset",
    "rayon_core::registry::Registry::in_worker_cold",
)
POOL_IDLE = (
    "syscall",
    "rayon_core::sleep::Sleep::sleep",
    "rayon_core::registry::WorkerThread::wait_until_cold",
    "rayon_core::registry::main_loop",
)
POOL_MUTEX = (
    "syscall",
    "std::sys::sync::mutex::futex::Mutex::lock_contended",
    "fixture::job",
    "rayon_core::registry::main_loop",
)
POOL_GIL = (
    "syscall",
    "pthread_cond_timedwait",
    "take_gil",
    "PyEval_RestoreThread",
    "pyo3::marker::Python::attach",
    "rayon_core::registry::main_loop",
)
FINALIZE_JOIN = (
    "__futex_abstimed_wait_common",
    "__pthread_clockjoin_ex",
    "std::sys::thread::unix::Thread::join",
    "std::thread::lifecycle::JoinInner<T>::join",
    "<loader::Prefetcher as core::ops::drop::Drop>::drop",
    "pyo3::impl_::pyclass::tp_dealloc",
    "dict_dealloc",
    "module_dealloc",
    "finalize_modules",
    "Py_FinalizeEx",
    "Py_RunMain",
)
CONDVAR = (
    "syscall",
    "std::sys::sync::condvar::futex::Condvar::wait",
    "std::sys::backtrace::__rust_begin_short_backtrace",
)
PY_ACQUIRE = ("0x7f60efe9af16", "PyThread_acquire_lock_timed", "lock_PyThread_acquire_lock")
TOKIO_DRIVER = ("epoll_wait", "tokio::runtime::io::driver::Driver::turn", "tokio::runtime::park::Inner::park")
TOKIO_PARK = ("syscall", "tokio::runtime::park::Inner::park", "tokio::runtime::runtime::Runtime::block_on")


@dataclass(frozen=True)
class T:
    """One recorded thread: its /proc facts and, optionally, what its stacks showed."""

    tid: int
    syscall: str | None = None
    state: str = "S"
    cpu_ms: float = 0.0
    vol: int = 0
    comm: str = "python3"
    wchan: str | None = None
    fd: str | None = None
    native: tuple[str, ...] = ()
    native_modules: tuple[str, ...] = ()
    """The module of each native frame (as `eu-stack -m` prints it), where it matters."""
    py: tuple[tuple[str, str, int], ...] = ()
    """(function, file, line), innermost first."""
    gil: bool = False


@dataclass(frozen=True)
class Shape:
    threads: tuple[T, ...]
    sigcgt: int = 1 << (signal.SIGINT - 1)
    children: int | None = 0
    """Its live children (/proc): a caught SIGCHLD may come while one lives."""
    native_ok: bool = True
    stacks: bool = True
    forked_from: int | None = None
    foreign_tids: tuple[int, ...] = ()
    extra: dict[str, str] = field(default_factory=dict)


def samples(shape: Shape) -> tuple[ProcSample, ProcSample]:
    def one(t: T, second: bool) -> ThreadSample:
        nr, args = parse_syscall_args(t.syscall or "running")
        return ThreadSample(
            tid=t.tid,
            comm=t.comm,
            state=t.state,
            wchan=t.wchan,
            syscall=nr,
            futex_addr=args[0] if nr == 202 and args else None,
            utime=0,
            stime=0,
            voluntary_ctxt=t.vol if second else 0,
            nonvoluntary_ctxt=0,
            run_ns=int(t.cpu_ms * 1e6) if second else 0,
            args=args,
            fd_target=t.fd,
        )

    return (
        ProcSample(
            PID, 0.0, tuple(one(t, False) for t in shape.threads), shape.sigcgt, children=shape.children
        ),
        ProcSample(
            PID, 0.5, tuple(one(t, True) for t in shape.threads), shape.sigcgt, children=shape.children
        ),
    )


def capture_of(shape: Shape, finding: ProbeFinding) -> Capture:
    deltas = {d.tid: d for d in finding.threads}
    views = []
    for t in shape.threads:
        d = deltas[t.tid]
        py = None
        if t.py:
            # py-spy --native shows CPython's lock acquire under a thread blocked in one
            in_lock = bool(t.syscall and t.syscall.startswith("202 ") and " 0x189 " in t.syscall)
            frames = tuple(Frame(n) for n in PY_ACQUIRE if in_lock) + tuple(
                Frame(name, file, line) for name, file, line in t.py
            )
            py = PyThread(t.tid, "MainThread" if t.tid == PID else f"Thread-{t.tid}", t.gil, False, frames)
        views.append(
            ThreadView(
                t.tid,
                t.comm,
                t.state,
                None,
                d.futex_addr,
                t.wchan,
                d.cpu_s,
                0,
                0,
                py,
                tuple(
                    Frame(n, module=m or None)
                    for n, m in zip(t.native, t.native_modules or ("",) * len(t.native), strict=True)
                ),
            )
        )
    native = ToolRun("eu-stack", True, 0.1) if shape.native_ok else ToolRun("native", False, 0.0, (), "none")
    return Capture(
        PID,
        tuple(views),
        ToolRun("py-spy", True, 0.1),
        native,
        forked_from=shape.forked_from,
        foreign_tids=shape.foreign_tids,
    )


def verdicts(shape: Shape) -> tuple[ProbeFinding, ProbeFinding, ProbeFinding]:
    """(run from /proc, run with stacks, inspect with stacks)."""
    a, b = samples(shape)
    run0 = judge(a, b, progress_tid=PID, progress=True)
    run = decide(run0, capture_of(shape, run0), progress=True) if shape.stacks else run0
    ins0 = judge(a, b, progress_tid=PID, progress=False)
    ins = decide(ins0, capture_of(shape, ins0), progress=False) if shape.stacks else ins0
    return run0, run, ins


THREADING = "/usr/lib/python3.11/threading.py"
WORKER = "/usr/lib/python3.11/concurrent/futures/thread.py"
BASE = "/usr/lib/python3.11/concurrent/futures/_base.py"
TPOOL = WORKER

SHAPES: dict[str, tuple[Shape, ProbeKind, Verdict, str | None]] = {
    # name: (shape, run verdict with stacks, inspect verdict, pattern named in inspect)
    "idle thread pool, main sleeping": (
        Shape(
            (
                T(PID, SLEEP, wchan="hrtimer_nanosleep", py=(("main", "app.py", 24),)),
                *(
                    T(PID + i, LOCK.format(addr=0x5579A39F8370), py=(("_worker", WORKER, 81),))
                    for i in (1, 2, 3)
                ),
            )
        ),
        ProbeKind.WAITING,
        Verdict.IDLE,
        None,
    ),
    "main blocked reading a silent pipe": (
        Shape(
            (
                T(PID, READ, wchan="anon_pipe_read", fd="pipe:[30468]", py=(("main", "app.py", 25),)),
                T(PID + 1, LOCK.format(addr=0x10), py=(("_worker", WORKER, 81),)),
            )
        ),
        ProbeKind.WAITING,
        Verdict.IDLE,
        None,
    ),
    "main in accept()": (
        Shape((T(PID, ACCEPT, wchan="inet_csk_accept", fd="socket:[31433]"),)),
        ProbeKind.WAITING,
        Verdict.IDLE,
        None,
    ),
    "a numpy busy loop": (
        Shape(
            (
                T(PID, None, state="R", cpu_ms=240),
                T(PID + 1, None, state="R", cpu_ms=250, native=("blas_thread_server",)),
            )
        ),
        ProbeKind.LIVELOCK,
        Verdict.BUSY,
        None,
    ),
    "stopped by SIGSTOP": (
        Shape((T(PID, SLEEP, state="T"), T(PID + 1, LOCK.format(addr=0x10), state="T"))),
        ProbeKind.STOPPED,
        Verdict.STOPPED,
        None,
    ),
    "a healthy timed-wait loop (Event.wait(1.0))": (
        Shape(
            (
                T(PID, TIMED.format(addr=0x20), vol=1),
                T(PID + 1, LOCK.format(addr=0x10), py=(("_worker", WORKER, 81),)),
            )
        ),
        ProbeKind.WAITING,
        Verdict.IDLE,
        None,
    ),
    "wait interrupted by a ptrace tool (restart_syscall)": (
        Shape((T(PID, RESTART, wchan="futex_do_wait"),)),
        ProbeKind.WAITING,
        Verdict.IDLE,
        None,
    ),
    "a wait in flock() for a lock another process holds": (
        Shape((T(PID, FLOCK, fd="/data/x.lock"),)),
        ProbeKind.WAITING,
        Verdict.IDLE,
        None,
    ),
    "a C sleep() an earlier inspect interrupted (restart_syscall, wchan do_syscall_64)": (
        Shape((T(PID, RESTART, wchan="do_syscall_64"),)),
        ProbeKind.WAITING,
        Verdict.IDLE,
        None,
    ),
    "pure-Python lock-order inversion": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    py=(
                        ("Thread._wait_for_tstate_lock", THREADING, 1116),
                        ("Thread.join", THREADING, 1096),
                        ("main", "inv.py", 70),
                    ),
                ),
                T(PID + 1, LOCK.format(addr=0xB0), py=(("main.<locals>.worker", "inv.py", 52),)),
                T(PID + 2, LOCK.format(addr=0xC0), py=(("main.<locals>.worker", "inv.py", 52),)),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.PY_LOCK_ORDER,
    ),
    "a Condition.wait() nobody will notify": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    py=(("Condition.wait", THREADING, 327), ("main", "lw.py", 48)),
                ),
                T(
                    PID + 1,
                    LOCK.format(addr=0xB0),
                    py=(("Condition.wait", THREADING, 327), ("helper", "lw.py", 44)),
                ),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.LOST_WAKEUP,
    ),
    "main joins a thread in a Condition.wait() nobody notifies (named at the wait, not the join)": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    py=(("Thread._wait_for_tstate_lock", THREADING, 1139), ("Thread.join", THREADING, 1119)),
                ),
                T(
                    PID + 1,
                    LOCK.format(addr=0xB0),
                    py=(("Condition.wait", THREADING, 327), ("waiter", "j.py", 34)),
                ),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.LOST_WAKEUP,
    ),
    "every ThreadPoolExecutor worker waits on a future queued behind it": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    py=(("Condition.wait", THREADING, 327), ("Future.result", BASE, 451)),
                ),
                *(
                    T(
                        PID + i,
                        LOCK.format(addr=0xA0 + i),
                        py=(
                            ("Condition.wait", THREADING, 327),
                            ("Future.result", BASE, 451),
                            ("task", "tp.py", 40),
                            ("_WorkItem.run", TPOOL, 58),
                            ("_worker", TPOOL, 83),
                        ),
                    )
                    for i in (1, 2)
                ),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.THREAD_POOL_EXHAUSTION,
    ),
    "a module's top-level code joins a thread that imports it": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    py=(
                        ("Thread._wait_for_tstate_lock", THREADING, 1139),
                        ("Thread.join", THREADING, 1119),
                        ("<module>", "/app/mod.py", 39),
                        ("_call_with_frames_removed", "<frozen importlib._bootstrap>", 241),
                        ("_find_and_load", "<frozen importlib._bootstrap>", 1176),
                    ),
                ),
                T(
                    PID + 1,
                    LOCK.format(addr=0xB0),
                    py=(
                        ("_ModuleLock.acquire", "<frozen importlib._bootstrap>", 120),
                        ("_lock_unlock_module", "<frozen importlib._bootstrap>", 224),
                        ("_importer", "/app/mod.py", 23),
                    ),
                ),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.IMPORT_LOCK,
    ),
    "the same wait in a process that handles SIGTERM": (
        Shape(
            (T(PID, LOCK.format(addr=0xA0), py=(("Condition.wait", THREADING, 327), ("main", "d.py", 9))),),
            sigcgt=(1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1)),
        ),
        ProbeKind.DEADLOCK,
        Verdict.IDLE,
        None,
    ),
    "the same wait for an Event a SIGCHLD handler sets, its child alive": (
        Shape(
            (T(PID, LOCK.format(addr=0xA0), py=(("Condition.wait", THREADING, 327), ("main", "d.py", 9))),),
            sigcgt=(1 << (signal.SIGINT - 1)) | (1 << (signal.SIGCHLD - 1)),
            children=1,
        ),
        ProbeKind.DEADLOCK,
        Verdict.IDLE,
        None,
    ),
    "the same SIGCHLD handler with no child left alive: no SIGCHLD will come": (
        Shape(
            (T(PID, LOCK.format(addr=0xA0), py=(("Condition.wait", THREADING, 327), ("main", "d.py", 9))),),
            sigcgt=(1 << (signal.SIGINT - 1)) | (1 << (signal.SIGCHLD - 1)),
            children=0,
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.LOST_WAKEUP,
    ),
    "main waits on a futex for a thread blocked in read()": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    py=(("Future.result", "/usr/lib/python3.11/concurrent/futures/_base.py", 451),),
                ),
                T(PID + 1, READ, fd="pipe:[7]", py=(("fetch", "app.py", 3),)),
            )
        ),
        ProbeKind.WAITING,
        Verdict.IDLE,
        None,
    ),
    "lock held across a parallel region, tokio idle in epoll": (
        Shape(
            (
                T(PID, RUST_LOCK.format(addr=0xA0), native=LATCH),
                *(T(PID + i, RUST_LOCK.format(addr=0xB0), native=POOL_MUTEX) for i in (1, 2, 3)),
                T(PID + 9, EPOLL, comm="tokio-runtime-w", native=TOKIO_DRIVER),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.LOCK_ACROSS,
    ),
    "GIL held across a rayon region": (
        Shape(
            (
                T(PID, RUST_LOCK.format(addr=0xA0), native=LATCH, py=(("load", "loader.py", 10),), gil=True),
                *(T(PID + i, TIMED.format(addr=0xC0), vol=90, native=POOL_GIL) for i in (1, 2)),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.GIL_HELD,
    ),
    "healthy rayon batch in flight": (
        Shape(
            (
                T(PID, RUST_LOCK.format(addr=0xA0), native=LATCH),
                *(
                    T(
                        PID + i,
                        None,
                        state="R",
                        cpu_ms=200,
                        native=("fixture::job", "rayon_core::registry::main_loop"),
                    )
                    for i in (1, 2)
                ),
            )
        ),
        ProbeKind.LIVELOCK,
        Verdict.BUSY,
        None,
    ),
    "latch wait with an idle rayon pool (its jobs are gone)": (
        Shape(
            (
                T(PID, RUST_LOCK.format(addr=0xA0), native=LATCH),
                *(T(PID + i, RUST_LOCK.format(addr=0xB0 + i), native=POOL_IDLE) for i in (1, 2)),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,  # closed within the process, flat CPU: a hang even with no name for it
        None,
    ),
    "forked child waits in a tokio runtime it does not have": (
        Shape((T(PID, RUST_LOCK.format(addr=0xA0), native=TOKIO_PARK),)),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.FORK_AFTER_INIT,
    ),
    "forked child in a rayon latch with no pool thread": (
        Shape((T(PID, RUST_LOCK.format(addr=0xA0), native=LATCH),)),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.FORK_AFTER_INIT,
    ),
    "the GIL's holder waits on a native mutex whose holder waits for the GIL": (
        Shape(
            (
                T(
                    PID,
                    RUST_LOCK.format(addr=0xA0),
                    native=("__lll_lock_wait", "pthread_mutex_lock", "ffi_call"),
                    gil=True,
                    py=(("load", "app.py", 13),),
                ),
                T(
                    PID + 1,
                    TIMED.format(addr=0xB0),
                    vol=100,
                    native=("pthread_cond_timedwait", "take_gil", "_PyEval_EvalFrameDefault"),
                    py=(("holder", "app.py", 9),),
                ),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.GIL_LOCK_INVERSION,
    ),
    "a forked child starts an OpenMP team whose threads it does not have (stripped libgomp frames)": (
        Shape(
            (
                T(
                    PID,
                    RUST_LOCK.format(addr=0xA0),
                    native=("??", "??", "ffi_call"),
                    native_modules=("libgomp.so.1", "libgomp.so.1", "libffi.so.8"),
                ),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.FORK_AFTER_INIT,
    ),
    "a fork that never exec'd waits for a lock held by a thread it does not have": (
        Shape((T(PID, LOCK.format(addr=0xA0), py=(("main", "f.py", 28),)),), forked_from=PID - 5),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.FORK_HELD_LOCK,
    ),
    "a fork that never exec'd waits for a future whose thread pool stayed in the parent": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    py=(
                        ("Condition.wait", THREADING, 327),
                        ("Future.result", "/usr/lib/python3.11/concurrent/futures/_base.py", 451),
                        ("load", "f.py", 12),
                    ),
                ),
            ),
            forked_from=PID - 5,
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.FORK_AFTER_INIT,
    ),
    "the same lock wait in a process that was not forked (a self-deadlock, no pattern)": (
        Shape((T(PID, LOCK.format(addr=0xA0), py=(("main", "f.py", 28),)),)),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        None,
    ),
    "a child still inside fork(): its at-fork handler waits on a lock (py-spy lists the parent's threads)": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    native=(
                        "__new_sem_wait_slow64",
                        "PyThread_acquire_lock_timed",
                        "closure_fcn",
                        "__run_postfork_handlers",
                        "__fork",
                        "os_fork",
                    ),
                ),
            ),
            foreign_tids=(PID - 3, PID - 1),
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.FORK_HELD_LOCK,
    ),
    "the interpreter's exit joins a thread that waits forever": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    py=(("Thread._wait_for_tstate_lock", THREADING, 1139), ("_shutdown", THREADING, 1590)),
                ),
                T(
                    PID + 1,
                    LOCK.format(addr=0xB0),
                    py=(("Condition.wait", THREADING, 327), ("Event.wait", THREADING, 629)),
                ),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.EXIT_HANG,
    ),
    "Queue.join() while the consumer, which never calls task_done(), waits for items": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    py=(
                        ("Condition.wait", THREADING, 327),
                        ("Queue.join", "/usr/lib/python3.11/queue.py", 90),
                        ("main", "q.py", 32),
                    ),
                ),
                T(
                    PID + 1,
                    LOCK.format(addr=0xB0),
                    py=(
                        ("Condition.wait", THREADING, 327),
                        ("Queue.get", "/usr/lib/python3.11/queue.py", 171),
                        ("consume", "q.py", 17),
                    ),
                ),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.QUEUE_JOIN,
    ),
    "a native destructor in Py_FinalizeEx joins a thread that waits for a stop it never gets": (
        Shape(
            (
                T(
                    PID,
                    SHARED_LOCK.format(addr=0xA0),
                    native=FINALIZE_JOIN,
                ),
                T(PID + 1, RUST_LOCK.format(addr=0xB0), comm="prefetch", native=CONDVAR),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.EXIT_DESTRUCTOR,
    ),
    "a C++ static destructor in libc's exit handlers waits for pool threads that are gone": (
        Shape(
            (
                T(
                    PID,
                    RUST_LOCK.format(addr=0xA0),
                    native=(
                        "__futex_abstimed_wait_common",
                        "pthread_cond_wait@@GLIBC_2.3.2",
                        "std::condition_variable::wait",
                        "arrow::internal::ThreadPool::Shutdown",
                        "std::_Sp_counted_ptr<arrow::internal::ThreadPool*, (__gnu_cxx::_Lock_policy)2>::_M_dispose",
                        "__run_exit_handlers",
                        "exit",
                        "__libc_start_call_main",
                    ),
                ),
                T(
                    PID + 1,
                    RUST_LOCK.format(addr=0xB0),
                    comm="jemalloc_bg_thd",
                    native=("pthread_cond_wait",),
                ),
            ),
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.EXIT_DESTRUCTOR,
    ),
    "the same join outside finalization: closed (a tid word is not shared memory), unnamed": (
        Shape(
            (
                T(PID, SHARED_LOCK.format(addr=0xA0), native=FINALIZE_JOIN[:4]),
                T(PID + 1, RUST_LOCK.format(addr=0xB0), comm="prefetch", native=CONDVAR),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        None,
    ),
    "Py_FinalizeEx still running Python (threading._shutdown): the Python shape names it": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    native=("PyThread_acquire_lock_timed", "wait_for_thread_shutdown", "Py_FinalizeEx"),
                    py=(("Thread._wait_for_tstate_lock", THREADING, 1139), ("_shutdown", THREADING, 1590)),
                ),
                T(PID + 1, LOCK.format(addr=0xB0), py=(("Event.wait", THREADING, 629),)),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.EXIT_HANG,
    ),
    "a __del__ in module teardown waits for an Event a daemon thread would set, no thread left": (
        Shape(
            (
                T(
                    PID,
                    LOCK.format(addr=0xA0),
                    native=(
                        "PyThread_acquire_lock_timed",
                        "lock_PyThread_acquire_lock",
                        "_PyEval_EvalFrameDefault",
                        "slot_tp_finalize",
                        "finalize_modules",
                        "Py_FinalizeEx",
                    ),
                    py=(("Event.wait", THREADING, 629), ("Server.__del__", "srv.py", 38)),
                ),
            )
        ),
        ProbeKind.DEADLOCK,
        Verdict.DEADLOCK,
        names.EXIT_FINALIZER_WAIT,
    ),
    "a closed wait on a futex in shared memory (another process may post it)": (
        Shape((T(PID, SHARED_LOCK.format(addr=0xA0), native=("__new_sem_wait_slow64", "sem_wait")),)),
        ProbeKind.STALLED,  # with a progress signal too: a holder at work may post it (blind 5-21's look-alike)
        Verdict.STALLED,
        None,
    ),
    "a latch wait without any native view": (
        Shape(
            (
                T(PID, RUST_LOCK.format(addr=0xA0), py=(("load", "loader.py", 10),)),
                T(PID + 1, RUST_LOCK.format(addr=0xB0)),
            ),
            native_ok=False,
        ),
        ProbeKind.DEADLOCK,
        Verdict.STALLED,
        None,
    ),
    # a resource tracker seen reading its pipe just before its peer exited and it did too (a job
    # ending under watch): its last wait is history, not a hang
    "a process that has exited (a zombie), its last wait a pipe read": (
        Shape((T(PID, READ, state="Z", wchan="anon_pipe_read", fd="pipe:[9]"),)),
        ProbeKind.GONE,
        Verdict.STALLED,
        None,
    ),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_recorded_shapes(name: str) -> None:
    shape, run_kind, inspect_verdict, pattern = SHAPES[name]
    _, run, ins = verdicts(shape)
    assert run.kind is run_kind, run.reason
    assert INSPECT_VERDICT[ins.kind] is inspect_verdict, ins.reason
    if pattern is not None:
        m = patterns.match(ins, capture_of(shape, ins))
        assert m is not None
        assert m.pattern == pattern


def test_an_outside_wait_is_named_with_its_fd() -> None:
    shape = SHAPES["main blocked reading a silent pipe"][0]
    run0, _, _ = verdicts(shape)
    assert run0.kind is ProbeKind.WAITING
    assert "read() on fd 3 (pipe:[30468])" in run0.reason
    assert run0.threads[0].wait is not None
    assert run0.threads[0].wait.kind is WaitKind.IO


def test_idle_threads_are_listed_not_counted() -> None:
    shape = SHAPES["lock held across a parallel region, tokio idle in epoll"][0]
    a, b = samples(shape)
    f = judge(a, b, progress_tid=PID, progress=True)  # /proc alone: tokio known by its name
    assert f.kind is ProbeKind.DEADLOCK
    assert any("tokio" in line for line in f.idle)


def test_a_gil_like_timed_wait_counts_as_blocked_from_proc_alone() -> None:
    # ~180 wakeups/s with no CPU: re-waiting in a loop (the GIL), not about to time out
    shape = Shape((T(PID, RUST_LOCK.format(addr=0xA0)), T(PID + 1, TIMED.format(addr=0xC0), vol=90)))
    run0, _, _ = verdicts(shape)
    assert run0.kind is ProbeKind.DEADLOCK


def test_a_parent_joining_a_child_blocked_on_a_full_pipe_is_a_cycle() -> None:
    parent = judge(*samples(Shape((T(PID, WAIT4.format(child=2000), wchan="do_wait"),))), progress=False)
    child_shape = Shape(
        (T(2000, LOCK.format(addr=0xA0)), T(2001, WRITE, wchan="anon_pipe_write", fd="pipe:[9]"))
    )
    a, b = samples(child_shape)
    child = judge(
        ProcSample(2000, a.at, a.threads),
        ProcSample(2000, b.at, b.threads),
        progress_tid=2000,
        progress=False,
    )
    findings = {PID: parent, 2000: child}
    linked = link_tree(findings, {2000: PID}, {PID: {"pipe:[9]": "rw"}, 2000: {"pipe:[9]": "rw"}})
    for pid in (PID, 2000):
        f, named = linked[pid]
        assert f.kind is ProbeKind.DEADLOCK
        assert named is not None
        assert named.pattern == names.JOIN_BEFORE_DRAIN
    # another process that reads the pipe breaks the cycle: only annotated
    linked = link_tree(findings, {2000: PID}, {PID: {"pipe:[9]": "rw"}, 3000: {"pipe:[9]": "r"}})
    assert linked[PID][0].kind is ProbeKind.IDLE
    assert linked[PID][1] is None
    assert any("child 2000" in line for line in linked[PID][0].chain)


def test_a_gil_waiter_caught_awake_at_the_second_sample_still_waits_where_it_was() -> None:
    # the second sample caught the pool thread in its 5 ms wake-up (state R, no syscall)
    first = ProcSample(
        PID,
        0.0,
        (
            ThreadSample(
                PID,
                "python3",
                "S",
                None,
                *parse_syscall_args(RUST_LOCK.format(addr=0xA0))[:1],
                0xA0,
                0,
                0,
                0,
                0,
                run_ns=0,
                args=parse_syscall_args(RUST_LOCK.format(addr=0xA0))[1],
            ),
            ThreadSample(
                PID + 1,
                "python3",
                "S",
                None,
                202,
                0xC0,
                0,
                0,
                0,
                0,
                run_ns=0,
                args=parse_syscall_args(TIMED.format(addr=0xC0))[1],
            ),
        ),
    )
    second = ProcSample(
        PID,
        0.5,
        (
            ThreadSample(
                PID,
                "python3",
                "S",
                None,
                *parse_syscall_args(RUST_LOCK.format(addr=0xA0))[:1],
                0xA0,
                0,
                0,
                0,
                0,
                run_ns=0,
                args=parse_syscall_args(RUST_LOCK.format(addr=0xA0))[1],
            ),
            ThreadSample(PID + 1, "python3", "R", None, None, None, 0, 0, 90, 0, run_ns=2_000_000),
        ),
    )
    f = judge(first, second, progress_tid=PID, progress=True)
    waiter = f.threads[1]
    assert waiter.parked
    assert waiter.wait is not None
    assert waiter.wait.kind is WaitKind.LOCK  # re-waiting 180x/s: the GIL, blocked
    assert f.kind is ProbeKind.DEADLOCK


@pytest.mark.parametrize(
    ("main", "drains", "cycle"),
    [
        # an event loop awaits the child's exit (its watcher thread in waitpid), the output unread
        (T(PID, EPOLL, wchan="ep_poll"), False, True),
        # the same loop also watches the pipe: it drains it as the child writes
        (T(PID, EPOLL, wchan="ep_poll"), True, False),
        # the main thread reads the pipe while the watcher waits for the exit
        (T(PID, READ, wchan="pipe_read"), True, False),
    ],
    ids=["awaited-before-read", "loop-reads-the-pipe", "main-reads-it"],
)
def test_a_child_awaited_by_a_watcher_thread_before_its_output_is_read_is_a_cycle(
    main: T, drains: bool, cycle: bool
) -> None:
    watcher = T(PID + 1, WAIT4.format(child=2000), wchan="do_wait")
    watched = replace(main, fd="pipe:[9]") if drains else main
    a, b = samples(Shape((watched, watcher)))
    parent = judge(a, b, progress_tid=PID, progress=False)
    if drains and main.syscall == EPOLL:  # the loop's epoll set holds the pipe
        parent = replace(
            parent,
            threads=tuple(
                replace(t, watched=((7, "pipe:[9]"),)) if t.tid == PID else t for t in parent.threads
            ),
        )
    ca, cb = samples(Shape((T(2000, WRITE, wchan="anon_pipe_write", fd="pipe:[9]"),)))
    child = judge(ProcSample(2000, ca.at, ca.threads), ProcSample(2000, cb.at, cb.threads), progress=False)
    linked = link_tree(
        {PID: parent, 2000: child}, {2000: PID}, {PID: {"pipe:[9]": "r"}, 2000: {"pipe:[9]": "w"}}
    )
    named = linked[2000][1]
    assert (named is not None and named.pattern == names.JOIN_BEFORE_DRAIN) is cycle


def test_a_process_whose_threads_changed_during_the_look_is_not_frozen() -> None:
    # recorded in CI: main read a pipe a writer thread in a timed wait would fill; by the second
    # sample the writer had written and exited, and main was caught taking the GIL (an untimed
    # futex) with no other thread left: one frozen state would read as "nobody can end it"
    before = Shape(
        (
            T(PID, READ, wchan="anon_pipe_read", fd="pipe:[30468]"),
            T(PID + 1, TIMED.format(addr=0xC0)),
        )
    )
    after = Shape((T(PID, LOCK.format(addr=0xA0)),))
    a, _ = samples(before)
    _, b = samples(after)
    for progress in (True, False):
        f = judge(a, b, progress_tid=PID, progress=progress)
        assert f.kind is ProbeKind.STALLED, f.reason
        assert "0 thread(s) started and 1 ended during the look" in f.reason
    # the same lone waiter in both samples is a closed wait: the rule does not hide a deadlock
    a, b = samples(after)
    assert judge(a, b, progress_tid=PID, progress=True).kind is ProbeKind.DEADLOCK


def test_a_waiter_that_read_or_wrote_during_the_look_is_not_frozen() -> None:
    a, b = samples(Shape((T(PID, LOCK.format(addr=0xA0)),)))
    (main,) = b.threads
    woke = ProcSample(PID, b.at, (replace(main, syscr=3, syscw=5),), b.sigcgt)
    quiet = ProcSample(PID, b.at, (replace(main, syscr=0, syscw=0),), b.sigcgt)
    a = ProcSample(PID, a.at, (replace(a.threads[0], syscr=0, syscw=0),), a.sigcgt)
    f = judge(a, woke, progress_tid=PID, progress=True)
    assert f.kind is ProbeKind.STALLED
    assert "made 8 read/write calls during the look" in f.reason
    assert judge(a, quiet, progress_tid=PID, progress=True).kind is ProbeKind.DEADLOCK
