"""Fork hangs that no lock cycle shows (pure): timed waits a library re-arms forever.

- A forked child with one thread, waiting inside a native library (a completion queue's poller,
  a pool's condition, timed or not, woken by its own timer and going back to sleep), while the
  parent has threads that the same library started: the child waits for threads that fork() did
  not copy. The library is known by the module its frames are in, so stripped code counts too.
- A process inside fork() itself, in a prepare handler (``pthread_atfork``: the parent side),
  waiting, in a loop it re-arms, for threads of its own that wait only on this process's own
  descriptors, locks or timers: nothing will make them do what the handler waits for.
"""

from __future__ import annotations

from dataclasses import replace

from gvlstress.judge import vocab
from gvlstress.judge.case import Case, Found
from gvlstress.judge.names import FORK_AFTER_INIT, FORK_HANDLER, HINTS, Match
from gvlstress.judge.otherend import internal_wait
from gvlstress.judge.runtimes import started_in
from gvlstress.model import Capture, Frame, ProbeFinding, ProbeKind, ThreadView, WaitKind
from gvlstress.model.evidence import (
    ForkNoExec,
    HandlerRearms,
    InPrepareHandler,
    LibraryWait,
    OwnWaitsOnly,
    ParentLibraryThreads,
    RearmedWait,
    UntimedWait,
)
from gvlstress.model.wiring import Wiring

PREFORK = ("__run_prefork_handlers", "__run_fork_handlers")
"""glibc running the prepare handlers of pthread_atfork in the forking (parent) process."""
_SYSTEM = (
    "/libc.so",
    "/libc-",
    "/libpthread",
    "/ld-linux",
    "/libpython",
    "/bin/python",
    "/libstdc++",
    "/libgcc_s",
    "/libm.so",
    "linux-vdso",
    "/libdl",
    "/librt",
)
"""Modules that every thread runs in: the C library, the loader, the interpreter itself."""


def library_of(f: Frame) -> str | None:
    """The module of a frame, unless it is one every thread runs in (libc, the loader, the
    interpreter)."""
    lib = f.module or (f.file if f.file and ".so" in f.file else None)
    if not lib or any(s in lib for s in _SYSTEM):
        return None
    return lib


def waiting_library(t: ThreadView) -> str | None:
    """The innermost native library (not libc, the loader or the interpreter) the thread waits
    in: the one its wait belongs to."""
    for f in t.native:
        lib = library_of(f)
        if lib is not None:
            return lib
        if f.line and f.file and f.file.endswith(".py"):
            return None  # Python code between: the wait is the interpreter's, not a library's
    return None


def short_lib(lib: str) -> str:
    """A library's file name, not its path."""
    return lib.rsplit("/", 1)[-1]


def orphaned_wait(f: ProbeFinding, capture: Capture | None, parent: Capture | None) -> Match | None:
    """A forked child whose only thread waits inside a library that started threads in the
    parent: those threads are what it waits for, and fork() copied none of them."""
    if capture is None or parent is None or capture.forked_from is None or len(f.threads) != 1:
        return None
    only = f.threads[0]
    if (
        not only.parked
        or only.wait is None
        or only.wait.kind not in (WaitKind.LOCK, WaitKind.TIMED, WaitKind.POLL)
    ):
        return None
    view = capture.thread(only.tid)
    lib = waiting_library(view) if view is not None else None
    if lib is None:
        return None
    theirs = [t for t in parent.threads if started_in(t, (lib,))]
    if not theirs:
        return None
    names = sorted({t.comm for t in theirs})
    return Match(
        FORK_AFTER_INIT,
        HINTS[FORK_AFTER_INIT],
        (
            ForkNoExec(f.pid, capture.forked_from),
            LibraryWait(
                only.tid,
                only.wait.detail,
                short_lib(lib),
                vocab.python_line(view) if view is not None else None,
            ),
            ParentLibraryThreads(len(theirs), short_lib(lib), tuple(names)),
            RearmedWait(only.voluntary_ctxt or 0) if only.wait.kind is not WaitKind.LOCK else UntimedWait(),
        ),
    )


def handler_wait(f: ProbeFinding, capture: Capture | None, wiring: Wiring) -> Match | None:
    """fork() that never returns: a prepare handler waits for threads that wait on nothing
    outside the process."""
    if capture is None:
        return None
    p = f.progress_thread()
    view = capture.thread(p.tid if p is not None else None)
    if p is None or view is None or not p.parked or not vocab.has(view, PREFORK):
        return None
    rest = [t for t in f.threads if t.tid != p.tid]
    stuck = []
    for t in rest:
        if not internal_wait(t, f.pid, wiring, timers=True):
            return None
        stuck.append(t)
    lib = waiting_library(view)
    return Match(
        FORK_HANDLER,
        HINTS[FORK_HANDLER],
        (
            InPrepareHandler(
                p.tid,
                vocab.first(view, PREFORK),
                short_lib(lib) if lib else None,
                p.wait.detail if p.wait else p.state,
            ),
            OwnWaitsOnly(len(stuck), tuple((t.tid, t.wait.detail) for t in stuck[:3] if t.wait)),
            HandlerRearms(),
        ),
    )


def judge_forks(case: Case) -> Found | None:
    """Either fork rule, as a deadlock; None when neither applies."""
    f, capture, parent, wiring = case.finding, case.capture, case.origin, case.wiring
    named = handler_wait(f, capture, wiring) or orphaned_wait(f, capture, parent)
    if named is None:
        return None
    reason = (
        "fork() never returns: an at-fork handler waits for threads that will not come"
        if named.pattern == FORK_HANDLER
        else "a forked child waits for threads of a library that fork() did not copy"
    )
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), named
