"""Native runtimes recognised by the library a frame is in, not its name: OpenMP's (GNU libgomp,
LLVM/Intel libomp) internals are stripped in most wheels, so their frames have no symbol, only a
module (eu-stack -m, or py-spy's native frames)."""

from __future__ import annotations

from gvlstress.judge.vocab import has
from gvlstress.model import Frame, ThreadView

OMP_WAIT = (
    "GOMP_parallel",
    "gomp_team_start",
    "gomp_barrier_wait",
    "gomp_team_barrier_wait",
    "__kmp_fork_call",
    "__kmpc_fork_call",
    "__kmp_join_call",
)
"""A thread starting or joining an OpenMP team (GNU libgomp, LLVM/Intel libomp)."""
OMP_WORKER = ("gomp_thread_start", "__kmp_launch_worker", "__kmp_launch_thread")
"""A thread of an OpenMP runtime's pool."""
OMP_LIBS = ("libgomp", "libomp", "libiomp")
"""OpenMP runtimes: their internal frames are often unnamed (stripped), so the module says it."""
AT_FORK = ("__run_postfork_handlers", "__run_fork_handlers", "run_at_forkers", "PyOS_AfterFork_Child")
"""Frames of fork()'s at-fork handlers (glibc's, CPython's os.register_at_fork): a thread under
them has not returned from fork() yet."""
_THREAD_START = ("start_thread", "__clone3", "clone3", "clone", "__clone")


def _library(f: Frame) -> str:
    return f.module or (f.file if f.file and ".so" in f.file else "") or ""


def in_library(t: ThreadView, libs: tuple[str, ...], depth: int = 4) -> bool:
    """One of the `depth` innermost native frames (the native tool's, or py-spy's) is in one
    of `libs` (by module path: works for frames without a symbol)."""
    py_native = [f for f in (t.python.frames if t.python else ()) if not f.line]
    return any(any(lib in _library(f) for lib in libs) for f in [*t.native[:depth], *py_native[:depth]])


def started_in(t: ThreadView, libs: tuple[str, ...]) -> bool:
    """The thread's start routine (the frame inside start_thread) is in one of `libs`."""
    outer = list(reversed(t.native))  # outermost first: clone3, start_thread, the start routine
    i = next((k for k, f in enumerate(outer) if f.name not in _THREAD_START), 0)
    return i > 0 and any(lib in _library(outer[i]) for lib in libs)


def is_omp_worker(t: ThreadView) -> bool:
    """A thread of an OpenMP runtime's pool (named, or started by the runtime's library)."""
    return has(t, OMP_WORKER) or started_in(t, OMP_LIBS)


def waits_for_omp_team(t: ThreadView) -> bool:
    """Starting or joining an OpenMP team (named frames, or the innermost frames in the runtime)."""
    return not is_omp_worker(t) and (has(t, OMP_WAIT) or in_library(t, OMP_LIBS))
