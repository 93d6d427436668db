"""`inspect`: capture and explain a live process (and its descendants); never kill it."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import psutil

from gvlstress.api.output import check_report_dir, new_run_dir, utc_now
from gvlstress.errors import EnvironmentProblem, UsageError
from gvlstress.judge import words
from gvlstress.judge.activity import activity
from gvlstress.judge.explain import explain
from gvlstress.judge.tree import died
from gvlstress.look.pipeline import LOOK_WINDOW_S, Seen, look_and_judge
from gvlstress.model import (
    Inspected,
    InspectResult,
)
from gvlstress.model.evidence import Note
from gvlstress.model.look import Subject
from gvlstress.probes import host as hostenv
from gvlstress.probes import procfs
from gvlstress.reporters import json_report, markdown, raw
from gvlstress.reporters.files import write_atomic
from gvlstress.system import watchdog
from gvlstress.system.redact import redact_argv, redact_path


def inspect(
    pid: int,
    tree: bool = False,
    report_dir: Path = Path("reports"),
    command: tuple[str, ...] | None = None,
    window: float | None = None,
) -> InspectResult:
    """Capture and explain a live process (and its descendants with `tree`); never kill it.

    There is no heartbeat, so it looks over `window` seconds (`gvlstress.look`): /proc and the
    stacks several times, each process's activity (CPU, syscalls, wake-ups per thread) the
    progress signal one snapshot lacks. The verdict is idle, busy, stopped or stalled, and
    deadlock or livelock only when a rule shows a wait nothing can end (a closed wait set, a
    pool that lost a task, a peer that has gone) or names what a spin waits for.
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
        return _inspect(procs, tree, run_dir, started, command, window or LOOK_WINDOW_S)


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


def _inspect(
    procs: list[psutil.Process],
    tree: bool,
    run_dir: Path,
    started: dt.datetime,
    command: tuple[str, ...] | None,
    window: float,
) -> InspectResult:
    pids = [p.pid for p in procs]
    seen = look_and_judge([Subject(p) for p in pids], window, tree=tree, adaptive=True)
    linked = seen.judged
    for pid in linked:  # the peers and parents the look took in are reported too
        if pid not in pids:
            with contextlib.suppress(psutil.Error):
                procs.append(psutil.Process(pid))
    ended = _ended(procs[0])  # after the look: what it saw may be its last moments, not idleness
    if ended is not None or pids[0] not in linked:
        did, left = ended or ("exited", "gone")
        raise UsageError(
            f"process {pids[0]} {did} while it was being inspected ({left}): there is nothing left to judge",
            hint="inspect it again while it runs",
        )
    how = (
        f"looked at over {seen.look.window_s:.1f}s of a {window:g}s window (no heartbeat: CPU, waits and "
        "stacks over the window)"
        if seen.look.window_s
        else "judged from two /proc samples and the stacks: a parked wait its stacks name (no window needed)"
    )
    inspected = described(seen, commands(procs), how)
    result = InspectResult(
        inspected,
        hostenv.snapshot(),
        started.isoformat(timespec="seconds"),
        redact_argv(command if command is not None else sys.argv),
        redact_path(str(run_dir)),  # --report-dir is the user's: a secret in it stays out
    )
    return write_inspected(result, run_dir)


def commands(procs: list[psutil.Process]) -> dict[int, str]:
    """Each process's command line as a report shows it (redacted; '?' where it cannot be read),
    in the order of `procs` (the root first)."""
    out = {}
    for proc in procs:
        try:
            out[proc.pid] = " ".join(redact_argv(proc.cmdline())) or proc.name()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            out[proc.pid] = "?"
    return out


def described(seen: Seen, commands: Mapping[int, str], how: str) -> tuple[Inspected, ...]:
    """Each judged process of a look as a report shows it: its command line (`commands`, the
    root first), its verdict explained, what it did over the window."""
    out = []
    for pid, cmdline in commands.items():
        j = seen.judged.get(pid)
        if j is None:
            continue
        looked = seen.look.processes[pid]
        cap = looked.capture
        diagnosis = explain(j.verdict, j.finding, cap, how, named=j.named, waitfor=j.waitfor)
        over = activity(list(looked.samples), looked.stops, cap)
        facts = (Note(over.summary), *diagnosis.facts)  # what it did over the window, worded by activity
        diagnosis = replace(diagnosis, evidence=words.evidence(facts), facts=facts)
        out.append(Inspected(pid, cmdline, j.finding, cap, diagnosis, over))
    return tuple(out)


def write_inspected(result: InspectResult, run_dir: Path) -> InspectResult:
    """An inspect's files: each process's raw views, inspect.json and report.md."""
    for p in result.processes:
        if p.capture:
            raw.write_raw(p.capture, run_dir / "processes" / f"pid{p.pid}")
    json_report.write_inspect(result, run_dir)
    write_atomic(run_dir / "report.md", markdown.render_inspect(result))
    return result
