"""Capture a process three ways (/proc, py-spy, native stacks) and merge by thread id.

Hung workers are captured in parallel, each tool with its own deadline, before anything is
killed. py-spy and the native tool both attach with ptrace, so per process they run one after
the other; a process is paused only while a tool reads it.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace

from gvlstress.model import (
    Capture,
    Frame,
    NativeThread,
    ProbeFinding,
    PyThread,
    StackSample,
    ThreadView,
    ToolRun,
    syscalls,
)
from gvlstress.probes import native, procfs, pyspy
from gvlstress.probes.tools import Hung

PYSPY_TIMEOUT_S = 20.0
NATIVE_TIMEOUT_S = 30.0


def merge(
    finding: ProbeFinding,
    py: tuple[PyThread, ...],
    nat: dict[int, tuple[Frame, ...]],
    forked_from: int | None = None,
) -> tuple[ThreadView, ...]:
    by_tid = {t.tid: t for t in py}
    only = finding.threads[0].tid if len(finding.threads) == 1 else None
    if only is not None and only not in by_tid and forked_from is not None:
        # a fork still inside fork(): its interpreter lists the parent's thread ids; the one
        # thread here is the forking one (it holds the GIL, or it was the parent's main thread)
        stand_in = next((t for t in py if t.owns_gil), None) or by_tid.get(forked_from)
        if stand_in is not None:
            by_tid[only] = replace(stand_in, tid=only)
    return tuple(
        ThreadView(
            tid=t.tid,
            comm=t.comm,
            state=t.state,
            syscall=syscalls.syscall_name(t.syscall),
            futex_addr=t.futex_addr,
            wchan=t.wchan,
            cpu_s=t.cpu_s,
            voluntary_ctxt=t.voluntary_ctxt,
            nonvoluntary_ctxt=t.nonvoluntary_ctxt,
            python=by_tid.get(t.tid),
            native=nat.get(t.tid, ()),
        )
        for t in finding.threads
    )


@dataclass(frozen=True)
class Stacks:
    """One look at a process's stacks: both tools' outcomes and raw output, before merging
    with a /proc finding (a look over a window takes them before the window's last sample)."""

    pid: int
    at: float
    """time.monotonic() when the look began."""
    pyspy: ToolRun
    python: tuple[PyThread, ...]
    python_raw: str | None
    native: ToolRun
    native_threads: tuple[NativeThread, ...]
    native_raw: str | None
    forked_from: int | None = None


NOT_AGAIN = "not asked again: it ran out of time earlier in this look"


def _timed_out(run: ToolRun) -> bool:
    return not run.ok and run.error is not None and "timed out" in run.error


def take(pid: int, native_view: bool = True, hung: Hung | None = None, *, python_view: bool = True) -> Stacks:
    """py-spy (unless not `python_view`), then (with `native_view`) the native stacks of every
    thread; a zombie gets neither (a ptrace tool's error on one reads as a permission problem).
    A tool in `hung` is skipped, and one that times out now is added to it."""
    at = time.monotonic()
    if procfs.zombie_status(pid) is not None:
        why = "a zombie (it exited and its parent has not reaped it): no threads left to trace"
        return Stacks(
            pid,
            at,
            ToolRun("py-spy", False, 0.0, (), why),
            (),
            None,
            ToolRun("native", False, 0.0, (), why),
            (),
            None,
        )
    hung = hung if hung is not None else Hung()
    py_run: ToolRun
    py_threads: tuple[PyThread, ...]
    py_raw: str | None
    if not python_view:
        py_run, py_threads, py_raw = ToolRun("py-spy", False, 0.0, (), "not asked for"), (), None
    elif "py-spy" in hung:
        py_run, py_threads, py_raw = ToolRun("py-spy", False, 0.0, (), NOT_AGAIN), (), None
    else:
        py_run, py_threads, py_raw = pyspy.dump(pid, PYSPY_TIMEOUT_S, native=native_view)
        if _timed_out(py_run):
            hung.add("py-spy")
    if native_view:
        nat_run, nat_threads, nat_raw = native.stacks(pid, NATIVE_TIMEOUT_S, hung)
    else:
        nat_run, nat_threads, nat_raw = ToolRun("native", False, 0.0, (), "not asked for"), (), None
    return Stacks(pid, at, py_run, py_threads, py_raw, nat_run, nat_threads, nat_raw, procfs.forked_from(pid))


def untouched(pid: int, at: float, why: str) -> Stacks:
    """No stacks of `pid`, on purpose, and why (a ptrace stop would change what it does)."""
    said = f"not taken: {why}; a ptrace stop would cut that write short and change what the process does"
    return Stacks(
        pid,
        at,
        ToolRun("py-spy", False, 0.0, (), said),
        (),
        None,
        ToolRun("native", False, 0.0, (), said),
        (),
        None,
    )


def assemble(finding: ProbeFinding, first: Stacks, later: tuple[Stacks, ...] = ()) -> Capture:
    """The capture of one process: its first look merged with the /proc finding by thread id,
    the later looks kept as resamples."""
    raw = {"proc.json": json.dumps(_proc_raw(finding), indent=1)}
    if first.python_raw:
        raw["pyspy.json"] = first.python_raw
    if first.native_raw:
        raw["native.txt"] = first.native_raw
    resamples = tuple(
        StackSample(
            round(s.at - first.at, 3),
            s.python if s.pyspy.ok else (),
            s.native_threads if s.native.ok else (),
        )
        for s in later
    )
    return Capture(
        pid=first.pid,
        threads=merge(
            finding, first.python, {t.tid: t.frames for t in first.native_threads}, first.forked_from
        ),
        pyspy=first.pyspy,
        native=first.native,
        raw=raw,
        forked_from=first.forked_from,
        foreign_tids=tuple(sorted({t.tid for t in first.python} - {t.tid for t in finding.threads})),
        resamples=resamples,
    )


def capture(pid: int, finding: ProbeFinding, hung: Hung | None = None) -> Capture:
    """py-spy, then native stacks, merged with the /proc finding already taken."""
    return assemble(finding, take(pid, hung=hung))


def _proc_raw(finding: ProbeFinding) -> dict[str, object]:
    return {
        "pid": finding.pid,
        "window_s": finding.window_s,
        "samples": [asdict(s) for s in finding.samples],
    }


def capture_many(findings: dict[int, ProbeFinding], hung: Hung | None = None) -> dict[int, Capture]:
    """Capture every process in parallel; each tool call carries its own deadline."""
    if not findings:
        return {}
    with ThreadPoolExecutor(max_workers=len(findings), thread_name_prefix="gvlstress-capture") as pool:
        futures = {pid: pool.submit(capture, pid, f, hung) for pid, f in findings.items()}
        return {pid: fut.result() for pid, fut in futures.items()}
