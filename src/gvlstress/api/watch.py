"""`gvlstress watch`: a hang watchdog for a long job, reporting through the same look as inspect.

The loop (`supervisor.watching`) reads the job's tree from /proc until it stops making progress,
looks at it then, and tells this module; here the reports are written (report.md and watch.json
always, inspect.json and the cores when a hang was found), so a watch stopped by a scheduler's
SIGTERM still leaves what it saw.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Protocol

import psutil

from gvlstress.api.inspecting import commands, described, write_inspected
from gvlstress.api.output import check_report_dir, new_run_dir, utc_now
from gvlstress.judge.across import Judgement
from gvlstress.look.pipeline import Seen
from gvlstress.model import HostFacts, Inspected, InspectResult
from gvlstress.model.cores import KeptCore
from gvlstress.model.watch import Quiet, TreeReading, WatchResult
from gvlstress.probes import host as hostenv
from gvlstress.probes.corewriter import Keep, keep_all
from gvlstress.reporters import json_report, markdown
from gvlstress.reporters.files import write_atomic
from gvlstress.supervisor.events import StopFlag
from gvlstress.supervisor.job import WatchPlan, restricted_ptrace
from gvlstress.supervisor.jobio import check_pid
from gvlstress.supervisor.watching import LIVE_SEAM, Seam, Watcher
from gvlstress.system.redact import redact_argv, redact_path


class View(Protocol):
    """What a live view is told (`reporters.console.watch.WatchView`)."""

    def reading(self, r: TreeReading, quiet_s: float, last: str) -> None: ...

    def quiet(self, spell: Quiet) -> None: ...

    def stopped(self, spell: Quiet) -> None:
        """Processes of the job were found stopped: resumed or reported (`spell.summary`)."""

    def kept(self, pid: int, group: bool) -> None:
        """After a hang, the job is left running for a human (--on-hang keep)."""

    def hang(self, judged: Mapping[int, Judgement], quiet_s: float, found: InspectResult) -> None:
        """A hang, its report already on disk (`found.run_dir`)."""


class _Reports:
    """Writes the hang's report the moment it is found (before --on-hang acts), and keeps what
    the live view is told. The run directory is made by `make_dir` when first needed."""

    def __init__(
        self,
        make_dir: Callable[[], Path],
        command: tuple[str, ...],
        view: View | None,
        keep_core: int | None,
        facts: Callable[[], HostFacts] = hostenv.snapshot,
    ) -> None:
        self.make_dir, self.command, self.view, self.keep_core = make_dir, command, view, keep_core
        self.facts = facts
        self.found: InspectResult | None = None
        self._run_dir: Path | None = None

    @property
    def run_dir(self) -> Path:
        if self._run_dir is None:
            self._run_dir = self.make_dir()
        return self._run_dir

    def make(self) -> Path:
        return self.run_dir

    @property
    def made(self) -> bool:
        return self._run_dir is not None

    def reading(self, r: TreeReading, quiet_s: float, last: str) -> None:
        if self.view is not None:
            self.view.reading(r, quiet_s, last)

    def quiet(self, spell: Quiet, seen: Seen) -> None:
        if self.view is not None:
            self.view.quiet(spell)

    def stopped(self, spell: Quiet) -> None:
        if self.view is not None:
            self.view.stopped(spell)

    def kept(self, pid: int, group: bool) -> None:
        if self.view is not None:
            self.view.kept(pid, group)

    def hang_found(self, seen: Seen, quiet_s: float) -> InspectResult:
        procs = []
        for pid in [*seen.look.subjects, *(p for p in seen.judged if p not in seen.look.subjects)]:
            try:
                procs.append(psutil.Process(pid))
            except psutil.Error:
                continue
        how = f"no progress for {quiet_s:.0f}s, then looked at (/proc, stacks, a window where needed)"
        inspected = described(seen, commands(procs), how)
        if self.keep_core:
            hung = [p.pid for p in inspected if seen.judged[p.pid].hung]
            kept = keep_all(Keep(self.run_dir, self.keep_core, 0), hung)
            inspected = tuple(_with_core(p, kept[p.pid]) if p.pid in kept else p for p in inspected)
        result = InspectResult(
            inspected,
            self.facts(),
            utc_now().isoformat(timespec="seconds"),
            self.command,
            redact_path(str(self.run_dir)),
            by="watch",
        )
        return write_inspected(result, self.run_dir)

    def hang(self, seen: Seen, quiet_s: float) -> None:
        self.found = self.hang_found(seen, quiet_s)
        if self.view is not None:
            self.view.hang(seen.judged, quiet_s, self.found)


def _with_core(p: Inspected, core: KeptCore) -> Inspected:
    return p if p.capture is None else replace(p, capture=replace(p.capture, core=core))


def blind_spots(plan: WatchPlan) -> tuple[str, ...]:
    """What this watch cannot see, said before it starts (an attached process of another user, a
    ptrace this user is not allowed)."""
    out = []
    if plan.pid is not None and restricted_ptrace():
        try:
            parent = psutil.Process(plan.pid).ppid()
        except psutil.Error:
            parent = -1
        if parent != os.getpid():
            out.append(
                "stacks: this host allows ptrace of descendants only (Yama ptrace_scope 1) and the job was not "
                "started by this watch, so a stall is judged from /proc alone (no Python or native stacks); run "
                "the job as `gvlstress watch -- COMMAND`, or watch as root"
            )
    if plan.pid is not None and not os.access(f"/proc/{plan.pid}/io", os.R_OK):
        out.append(
            "bytes read and written: /proc/PID/io is not readable here, so only CPU, pages and processes count"
        )
    return tuple(out)


AT_ONCE_S = 2.0
AT_ONCE_CODES = (2, 126, 127)
"""A job started here that ended this soon with one of these codes never ran as a job (Python's
"can't open file" and a usage error: 2; a shell's "not executable" 126, "not found" 127): its
exit is said, and no report is written for it. Any other code is the job's own end, reported."""


def watch(
    plan: WatchPlan,
    report_dir: Path = Path("reports"),
    stop: StopFlag | None = None,
    view: View | None = None,
    keep_core: int | None = None,
    command: tuple[str, ...] | None = None,
    *,
    name: str | None = None,
    hangs_only: bool = False,
    blind: tuple[str, ...] | None = None,
    seam: Seam = LIVE_SEAM,
) -> WatchResult:
    """Watch the job until it ends (or a stop); report a hang with the look ``inspect --tree``
    gives. `keep_core`: bytes kept per core of a hung process (None: no core). `name`: the run
    directory's (default: watch-PID or watch-COMMAND; made as the watch ends, or at a hang;
    none for a job that failed at once, `AT_ONCE_S`). `hangs_only` (the pytest plugin's watch
    of one test): no run directory and no files unless a hang was found. `blind`: what the
    caller knows this watch cannot see (default: `blind_spots`). `seam`: the job, its tree and
    the clock (`supervisor.watching.Seam`: this machine by default; a test's recorded world)."""
    check_report_dir(report_dir)
    if plan.pid is not None:
        check_pid(plan.pid)
    started = utc_now()
    if name is None:
        name = f"watch-{plan.pid}" if plan.pid is not None else f"watch-{Path(plan.command[0]).name}"
    said = redact_argv(command if command is not None else tuple(sys.argv))
    reports = _Reports(lambda: new_run_dir(report_dir, name, started), said, view, keep_core, seam.facts)
    stop = stop if stop is not None else StopFlag()
    clock = seam.host.monotonic
    t0 = clock()
    watcher = Watcher(plan, stop, reports, seam)
    with seam.guard():
        try:
            watcher.run()
        finally:
            seconds = round(clock() - t0, 1)
            at_once = (
                plan.pid is None
                and watcher.exit_code in AT_ONCE_CODES
                and clock() - t0 < AT_ONCE_S
                and reports.found is None
                and not stop
            )
            if not hangs_only and not at_once:
                reports.make()
            result = WatchResult(
                command=redact_argv(plan.command) if plan.command else (f"pid {plan.pid}",),
                pid=getattr(watcher, "pid", plan.pid or 0),
                attached=plan.pid is not None,
                started_at=started.isoformat(timespec="seconds"),
                seconds=seconds,
                stall_s=plan.stall_s,
                quiet=tuple(watcher.spells),
                hang=reports.found,
                action=watcher.action,
                exit_code=watcher.exit_code,
                stopped_by=_signal_name(stop.signum),
                blind=blind_spots(plan) if blind is None else blind,
                report_dir=redact_path(str(reports.run_dir)) if reports.made else "",
            )
            if reports.made:
                json_report.write_watch(result, reports.run_dir)
                write_atomic(reports.run_dir / "report.md", markdown.render_watch(result))
    return result


def _signal_name(signum: int | None) -> str | None:
    """The signal that stopped the watch (None: none, or its caller's own stop, 0)."""
    return signal.Signals(signum).name if signum else None
