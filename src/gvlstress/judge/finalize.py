"""Hangs at exit with no Python frame left: the main thread is in `Py_FinalizeEx` (after
`threading._shutdown`: module teardown, a Rust `Drop`, a `tp_dealloc`) or past it, in libc's
exit handlers (C++ static destructors, `atexit`: the interpreter is gone, py-spy finds none),
and waits on a join or a lock that nothing left running can end."""

from __future__ import annotations

from dataclasses import replace

from gvlstress.judge import vocab
from gvlstress.judge.case import Case, Found
from gvlstress.judge.frames import short_name
from gvlstress.judge.names import EXIT_DESTRUCTOR, EXIT_FINALIZER_WAIT, HINTS, Match
from gvlstress.model import ProbeKind, ThreadView, WaitKind
from gvlstress.model.evidence import (
    DestructorWaits,
    EndersWait,
    Fact,
    FinalizerWaitsLock,
    MainFinalizing,
    MainTearingDown,
    NoEnderLeft,
    NoPythonThreadRuns,
)

FINALIZE = ("Py_FinalizeEx", "_Py_Finalize", "Py_Finalize", "finalize_modules", "finalize_interp_clear")
"""CPython tearing the interpreter down (3.10-3.13 names)."""
PAST_FINALIZING = (
    "PyImport_Cleanup",
    "_PyImport_Cleanup",
    "finalize_modules",
    "finalize_interp_clear",
    "finalize_interp_delete",
    "_PyGC_CollectNoFail",
)
"""Stages of Py_FinalizeEx that run after it marked the interpreter finalizing: from there on no
other thread takes the GIL again (a daemon thread stops at its next bytecode; the others were
joined by threading._shutdown first), so only the main thread runs Python (3.7-3.13 names)."""
PY_LOCK = ("PyThread_acquire_lock_timed", "lock_PyThread_acquire_lock", "_PyMutex_LockTimed", "rlock_acquire")
"""CPython acquiring a Python lock (a Lock, an RLock, an Event's or a Condition's)."""
EXIT_HANDLERS = ("__run_exit_handlers", "__cxa_finalize", "_dl_fini")
"""glibc running exit handlers after the interpreter finalized: static destructors, atexit."""
JOIN = ("pthread_join", "pthread_clockjoin", "pthread_timedjoin", "JoinInner", "JoinHandle", "Thread::join")
"""A native thread join: its futex is the joined thread's id word, which only that thread's exit clears."""
DESTRUCTOR = (
    "as core::ops::drop::Drop>::drop",
    "drop_in_place",
    "tp_dealloc",
    "_dealloc",
    "::~",
    "__cxa_finalize",
)
"""Where the freeing code runs: a Rust Drop, a C++ destructor, an extension type's dealloc."""


def is_native_join(t: ThreadView) -> bool:
    """Blocked joining a native thread (its own process's: a tid word, not shared memory)."""
    return vocab.has(t, JOIN)


def exit_destructor(threads: list[ThreadView], pid: int) -> Match | None:
    """The main thread finalizing with no Python frame, blocked in a join or a lock wait."""
    main = next((t for t in threads if t.tid == pid), None)
    if main is None or main.futex_addr is None or not vocab.has(main, FINALIZE + EXIT_HANDLERS):
        return None
    if vocab.python_frames(main):
        return None  # still running Python (threading._shutdown, atexit): Python's shapes say more
    if vocab.has(main, FINALIZE):
        stage = (
            vocab.first(main, FINALIZE[3:]) if vocab.has(main, FINALIZE[3:]) else vocab.first(main, FINALIZE)
        )
        finalizing = MainFinalizing(pid, stage, past=False)
    else:
        finalizing = MainFinalizing(pid, vocab.first(main, EXIT_HANDLERS), past=True)
    freeing = vocab.first(main, DESTRUCTOR) if vocab.has(main, DESTRUCTOR) else None
    rest = [t for t in threads if t is not main]
    joins = [n for n in vocab.all_names(main) if any(j in n for j in JOIN)]
    waits = DestructorWaits(
        short_name(freeing, 2) if freeing else None,
        bool(joins),
        (rest[0].tid, rest[0].comm) if joins and len(rest) == 1 else None,
        short_name(joins[-1], 2) if joins else vocab.where(main),
        main.futex_addr,
    )
    ends: Fact = (
        EndersWait(tuple((t.tid, t.comm, vocab.where(t)) for t in rest[:4])) if rest else NoEnderLeft()
    )
    return Match(EXIT_DESTRUCTOR, HINTS[EXIT_DESTRUCTOR], (finalizing, waits, ends))


def exit_finalizer_wait(case: Case) -> Found | None:
    """The main thread, past the point of Py_FinalizeEx where other threads stop, runs Python code
    (a __del__ during module teardown) that waits, untimed, to acquire a Python lock: only another
    Python thread could release it, and none will run again. A deadlock whatever else /proc saw
    (a library's native timer threads keep ticking, and they hold no Python lock)."""
    f, capture = case.finding, case.capture
    if f.kind not in (ProbeKind.IDLE, ProbeKind.WAITING, ProbeKind.STALLED, ProbeKind.DEADLOCK):
        return None
    main = capture.thread(f.pid) if capture is not None else None
    delta = next((t for t in f.threads if t.tid == f.pid), None)
    if main is None or delta is None or delta.wait is None or delta.wait.kind is not WaitKind.LOCK:
        return None
    if not delta.parked or not vocab.has(main, PAST_FINALIZING) or not vocab.has(main, PY_LOCK):
        return None
    if not vocab.python_frames(main) and not vocab.has(main, ("_PyEval_EvalFrame", "PyEval_EvalFrame")):
        return None  # no Python code runs: the native-destructor shape says more
    stage = vocab.first(main, PAST_FINALIZING)
    others = [t for t in f.threads if t.tid != f.pid]
    facts = (
        MainTearingDown(f.pid, stage),
        FinalizerWaitsLock(vocab.first(main, PY_LOCK), delta.wait.addr or 0),
        NoPythonThreadRuns(len(others)),
    )
    match = Match(EXIT_FINALIZER_WAIT, HINTS[EXIT_FINALIZER_WAIT], facts)
    return replace(
        f, kind=ProbeKind.DEADLOCK, reason=EXIT_FINALIZER_WAIT, chain=(*f.chain, *match.evidence)
    ), match
