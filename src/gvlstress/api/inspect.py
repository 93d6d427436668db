"""`inspect`: capture and explain a live process (and its descendants); never kill it."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sys
from dataclasses import replace
from pathlib import Path

import psutil

from gvlstress.api.output import check_report_dir, new_run_dir, utc_now
from gvlstress.errors import EnvironmentProblem, UsageError
from gvlstress.judge.activity import activity
from gvlstress.judge.explain import explain
from gvlstress.judge.look import judge_look
from gvlstress.judge.tree import died
from gvlstress.judge.verdict import INSPECT_VERDICT
from gvlstress.model import (
    Inspected,
    InspectResult,
    ProbeKind,
    ProcSample,
    ThreadDelta,
    ThreadSample,
)
from gvlstress.model.wiring import Relatives
from gvlstress.probes import host as hostenv
from gvlstress.probes import procfs, wiring
from gvlstress.reporters import json_report, markdown, raw
from gvlstress.reporters.files import write_atomic
from gvlstress.supervisor.look import LOOK_WINDOW_S, look
from gvlstress.system import watchdog
from gvlstress.system.redact import redact_argv, redact_path


def inspect(
    pid: int,
    tree: bool = False,
    report_dir: Path = Path("reports"),
    command: tuple[str, ...] | None = None,
    watch: float | None = None,
) -> InspectResult:
    """Capture and explain a live process (and its descendants with `tree`); never kill it.

    One look has no progress signal: /proc is sampled twice (before any ptrace tool touches the
    process), the stacks are captured, and the verdict is idle, busy, stopped, stalled, or
    deadlock only when a named pattern or a cycle across processes explains a closed wait set.
    With `watch` seconds, /proc is sampled over that time instead, and each process gets its
    activity (CPU, syscalls, wake-ups per thread): the progress signal one look lacks.
    """
    try:
        root = psutil.Process(pid)
        if root.status() == psutil.STATUS_ZOMBIE:
            raise UsageError(f"process {pid} is a zombie (it has exited; its parent has not reaped it)")
        if procfs.is_kernel_thread(pid):
            raise UsageError(
                f"process {pid} ({root.name()}) is a kernel thread: it has no user stack to read",
                hint="inspect a user process (ps -ef shows kernel threads in [brackets])",
            )
        # a dead, unreaped child has nothing left to judge: its parent's report names it
        procs = [root, *(c for c in (root.children(recursive=True) if tree else []) if not _is_zombie(c))]
    except psutil.NoSuchProcess:
        raise UsageError(f"no process with pid {pid}", hint="check the pid (ps -ef)") from None
    check_report_dir(report_dir)
    if not os.access(f"/proc/{pid}/task", os.R_OK):
        raise EnvironmentProblem(f"cannot read /proc/{pid}/task", hint="run as the process owner or root")
    started = utc_now()
    run_dir = new_run_dir(report_dir, f"inspect-{pid}", started)
    with watchdog.guarding():
        return _inspect(procs, tree, run_dir, started, command, watch)


def _is_zombie(proc: psutil.Process) -> bool:
    try:
        return bool(proc.status() == psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def _ended(proc: psutil.Process) -> tuple[str, str] | None:
    """How the inspected process ended since it was found, None while it runs: (what it did,
    what is left of it). A zombie's wait status says how; a reaped one's went to its parent."""
    status = procfs.zombie_status(proc.pid)
    if status is not None:
        how = died({proc.pid: status}).removeprefix(f"{proc.pid} (").removesuffix(")")
        did = f"was killed by {how}" if status & 0x7F else f"exited ({how})"
        return did, "a zombie its parent has not reaped"
    try:
        return None if proc.is_running() else ("exited", "its parent reaped it")
    except psutil.Error:
        return "exited", "gone"


def _zombies(proc: psutil.Process) -> dict[int, int]:
    """Its dead, unreaped children: pid -> wait status."""
    try:
        kids = proc.children()
    except psutil.Error:
        return {}
    return {c.pid: st for c in kids if (st := procfs.zombie_status(c.pid)) is not None}


def _waited(threads: list[ThreadSample | ThreadDelta | None]) -> set[str]:
    """The pipes and sockets these threads wait on."""
    out: set[str] = set()
    for t in threads:
        if t is None:
            continue
        if t.fd_target:
            out.add(t.fd_target)
        out.update(target for _, target in t.watched or ())
    return {t for t in out if t.startswith(("pipe:", "socket:"))}


def _main(s: ProcSample | None) -> ThreadSample | None:
    return next((t for t in s.threads if t.tid == s.pid), None) if s else None


def _peers(pids: list[int]) -> list[int]:
    """Processes outside `pids` that hold the other end of what their main threads wait on, and
    the parents of forks: the look takes them in, so a wait is judged by what they do."""
    targets = _waited([_main(procfs.sample(p)) for p in pids])
    peer_ends = wiring.wiring(pids, targets)
    found = {h.pid for held in peer_ends.holders.values() for h in held}
    found |= {
        parent for p in pids if (parent := procfs.forked_from(p)) is not None
    }  # what a fork left behind
    found -= {*pids, os.getpid()}
    return sorted(p for p in found if procfs.zombie_status(p) is None)[:MAX_PEERS]


MAX_PEERS = 8
"""Processes outside the tree looked at because they hold the other end of a wait."""


def _inspect(
    procs: list[psutil.Process],
    tree: bool,
    run_dir: Path,
    started: dt.datetime,
    command: tuple[str, ...] | None,
    watch: float | None,
) -> InspectResult:
    pids = [p.pid for p in procs]
    zombies_before = {p.pid: _zombies(p) for p in procs}
    extra = _peers(pids)
    for pid in extra:
        with contextlib.suppress(psutil.Error):
            procs.append(psutil.Process(pid))
    window = watch or LOOK_WINDOW_S
    looked = look([p.pid for p in procs], window)
    findings = {p: x.finding for p, x in looked.items() if x.finding.kind is not ProbeKind.GONE}
    ended = _ended(procs[0])  # after the look: what it saw may be its last moments, not idleness
    if ended is not None or pids[0] not in findings:
        did, left = ended or ("exited", "gone")
        raise UsageError(
            f"process {pids[0]} {did} while it was being inspected ({left}): there is nothing left to judge",
            hint="inspect it again while it runs",
        )
    captures = {p: c for p in findings if (c := looked[p].capture) is not None}
    parents: dict[int, int | None] = {}
    begun: dict[int, float] = {}
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            parents[proc.pid] = proc.ppid()
            begun[proc.pid] = proc.create_time()
    zombies = {}
    for proc in procs:
        before = zombies_before.get(proc.pid, {})
        zombies[proc.pid] = {c: st for c, st in _zombies(proc).items() if before.get(c) == st}
    relatives = Relatives(parents, begun, zombies, {p: procfs.pipe_ends(p) for p in findings} if tree else {})
    waited = _waited([t for f in findings.values() for t in f.threads if t.tid == f.progress_tid])
    linked = judge_look(findings, captures, relatives, wiring.wiring(list(findings), waited))
    inspected = []
    for proc in procs:
        if proc.pid not in linked:
            continue
        f, named = linked[proc.pid]
        try:
            cmdline = " ".join(redact_argv(proc.cmdline())) or proc.name()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            cmdline = "?"
        cap = captures.get(proc.pid)
        verdict = INSPECT_VERDICT[f.kind]
        how = f"looked at over {window:g}s (no heartbeat: CPU, waits and stacks over the window)"
        diagnosis = explain(verdict, f, cap, how, named=named)
        seen = activity(list(looked[proc.pid].samples), looked[proc.pid].stops)
        diagnosis = replace(diagnosis, evidence=(seen.summary, *diagnosis.evidence))
        inspected.append(Inspected(proc.pid, cmdline, f, cap, diagnosis, seen))
    result = InspectResult(
        tuple(inspected),
        hostenv.snapshot(),
        started.isoformat(timespec="seconds"),
        redact_argv(command if command is not None else sys.argv),
        redact_path(str(run_dir)),  # --report-dir is the user's: a secret in it stays out
    )
    for p in result.processes:
        if p.capture:
            raw.write_raw(p.capture, run_dir / "processes" / f"pid{p.pid}")
    json_report.write_inspect(result, run_dir)
    write_atomic(run_dir / "report.md", markdown.render_inspect(result))
    return result
