"""Capture a process three ways (/proc, py-spy, native stacks) and merge by thread id.

Hung workers are captured in parallel, each tool with its own deadline, before anything is
killed. py-spy and the native tool both attach with ptrace, so per process they run one after
the other; a process is paused only while a tool reads it.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, replace

from gvlstress.model import Capture, Frame, ProbeFinding, PyThread, ThreadView, ToolRun, syscalls
from gvlstress.probes import native, procfs, pyspy

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


def capture(pid: int, finding: ProbeFinding) -> Capture:
    """py-spy, then native stacks, merged with the /proc finding already taken."""
    if procfs.zombie_status(pid) is not None:
        # a ptrace tool's error on a zombie reads as a permission problem; say what it is
        why = "a zombie (it exited and its parent has not reaped it): no threads left to trace"
        return Capture(
            pid=pid,
            threads=merge(finding, (), {}),
            pyspy=ToolRun("py-spy", False, 0.0, (), why),
            native=ToolRun("native", False, 0.0, (), why),
            raw={"proc.json": json.dumps(_proc_raw(finding), indent=1)},
        )
    py_run, py_threads, py_raw = pyspy.dump(pid, PYSPY_TIMEOUT_S)
    nat_run, nat_threads, nat_raw = native.stacks(pid, NATIVE_TIMEOUT_S)
    forked_from = procfs.forked_from(pid)
    raw = {"proc.json": json.dumps(_proc_raw(finding), indent=1)}
    if py_raw:
        raw["pyspy.json"] = py_raw
    if nat_raw:
        raw["native.txt"] = nat_raw
    return Capture(
        pid=pid,
        threads=merge(finding, py_threads, {t.tid: t.frames for t in nat_threads}, forked_from),
        pyspy=py_run,
        native=nat_run,
        raw=raw,
        forked_from=forked_from,
        foreign_tids=tuple(sorted({t.tid for t in py_threads} - {t.tid for t in finding.threads})),
    )


def _proc_raw(finding: ProbeFinding) -> dict[str, object]:
    return {
        "pid": finding.pid,
        "window_s": finding.window_s,
        "samples": [asdict(s) for s in finding.samples],
    }


def capture_many(findings: dict[int, ProbeFinding]) -> dict[int, Capture]:
    """Capture every process in parallel; each tool call carries its own deadline."""
    if not findings:
        return {}
    with ThreadPoolExecutor(max_workers=len(findings), thread_name_prefix="gvlstress-capture") as pool:
        futures = {pid: pool.submit(capture, pid, f) for pid, f in findings.items()}
        return {pid: fut.result() for pid, fut in futures.items()}
