"""What `gvlstress watch` shows while it watches: a live table on stderr (the job keeps stdout
and the terminal) when asked, else one line per quiet spell and per hang. Every line of watch's
own starts with `PREFIX` (they share stderr with the job's unless ``--log FILE``)."""

from __future__ import annotations

import signal
from collections.abc import Mapping

from rich.console import Console
from rich.live import Live
from rich.markup import escape
from rich.table import Table

from gvlstress.judge.across import Judgement
from gvlstress.model import InspectResult
from gvlstress.model.watch import Quiet, TreeReading, WatchResult
from gvlstress.reporters.chain import end_line, fix_line
from gvlstress.system.text import clip, one_line

PREFIX = "gvlstress watch: "


class WatchView:
    """The live view (`live`) or plain lines; the same events either way."""

    def __init__(self, console: Console, live: bool, stall_s: float) -> None:
        self.console, self.stall_s = console, stall_s
        self._live: Live | None = Live(console=console, transient=True, auto_refresh=False) if live else None
        self._prev: TreeReading | None = None
        if self._live is not None:
            self._live.start()

    def reading(self, r: TreeReading, quiet_s: float, last: str) -> None:
        if self._live is None:
            self._prev = r
            return
        table = Table(title=f"gvlstress watch: quiet for {quiet_s:.0f}s of {self.stall_s:g}s", expand=False)
        for col in ("pid", "threads", "CPU %", "MB read", "MB written"):
            table.add_column(col, justify="right")
        before = {p.pid: p for p in self._prev.procs} if self._prev else {}
        span = max(r.at - self._prev.at, 1e-9) if self._prev else 1.0
        for p in r.procs[:20]:
            b = before.get(p.pid)
            cpu = 100.0 * (p.cpu_ticks - b.cpu_ticks) / 100 / span if b else 0.0
            table.add_row(
                str(p.pid),
                str(p.threads),
                f"{cpu:.0f}",
                f"{(p.rchar or 0) / 1e6:.1f}",
                f"{(p.wchar or 0) / 1e6:.1f}",
            )
        table.caption = escape(clip(f"last progress: {last}", 100))
        self._live.update(table, refresh=True)
        self._prev = r

    def quiet(self, spell: Quiet) -> None:
        said = "no hang" if spell.verdict == "stopped" else "healthy"  # a stop is no health
        self._say(f"quiet for {spell.quiet_s:.0f}s: looked, {said} ({spell.verdict}): {spell.summary}")

    def stopped(self, spell: Quiet) -> None:
        self._say(f"stopped: {spell.summary}")

    def kept(self, pid: int, group: bool) -> None:
        """How to end a hung job left running (--on-hang keep): the terminal blocks otherwise."""
        how = f"kill -- -{pid}" if group else f"kill {pid}"
        self._say(
            f"the hung job is left running (pid {pid}, --on-hang keep) and this watch waits for it: "
            f"end it with Ctrl-C here (passed on, then its tree killed after 10s) or `{how}`"
        )

    def hang(self, judged: Mapping[int, Judgement], quiet_s: float, found: InspectResult) -> None:
        hung = [(p, j) for p, j in judged.items() if j.hung]
        for pid, j in hung[:4]:
            name = j.named.pattern if j.named else j.finding.kind.value
            self._say(
                f"[bold red]hang[/] after {quiet_s:.0f}s quiet: pid {pid}: {j.verdict.value} ({name})",
                markup=True,
            )

    def _say(self, text: str, markup: bool = False) -> None:
        line = clip(one_line(text), 400)
        self.console.print(PREFIX + (line if markup else escape(line)), markup=True, highlight=False)

    def close(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None


def print_watch(console: Console, result: WatchResult) -> None:
    """The end of a watch, on stderr: what was found, what was done, where the report is."""
    if result.hang is not None:
        procs = result.hang.processes
        first = next((p for p in procs if p.diagnosis.verdict.is_hang), procs[0] if procs else None)
        said = (
            f"pid {first.pid}: {first.diagnosis.summary}"
            if first
            else "its processes exited before the report"
        )
        console.print(escape(clip(f"gvlstress watch: hang: {said}", 400)))
        if first is not None and first.diagnosis.waitfor is not None:
            console.print(escape(clip(f"gvlstress watch: {end_line(first.diagnosis.waitfor)}", 600)))
        if first is not None and (fix := fix_line(first.diagnosis)) is not None:
            console.print(escape(clip(f"gvlstress watch: {fix}", 600)))
        if result.action:
            console.print(escape(f"gvlstress watch: {result.action}"))
    elif result.stopped_by:
        console.print(
            escape(f"gvlstress watch: stopped by {result.stopped_by}; no hang seen in {result.seconds:.0f}s")
        )
    elif not result.report_dir and (result.exit_code or 0) > 0:
        console.print(
            escape(
                f"gvlstress watch: the job exited {result.exit_code} at once ({result.seconds:.1f}s): it "
                "never ran as a job (check the command after --); nothing watched, no report written"
            )
        )
        return
    else:
        end = _ended(result.exit_code) if result.exit_code is not None else "ended"
        console.print(
            escape(
                f"gvlstress watch: the job {end}; no hang ({len(result.quiet)} quiet spell(s) judged healthy)"
            )
        )
    for b in result.blind:
        console.print(escape(f"gvlstress watch: could not see {b}"))
    console.print(escape(f"gvlstress watch: report: {result.report_dir}/report.md"))


def _ended(code: int) -> str:
    """How the job ended, from its exit code: 'exited 3', or 'was killed by SIGTERM' for -15."""
    if code >= 0:
        return f"exited {code}"
    try:
        return f"was killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"was killed by signal {-code}"


def watched_test_lines(nodeid: str, found: InspectResult, quiet_s: float) -> list[str]:
    """A hang the pytest plugin's watch found in a running test: the lines of the test's report
    section (the first alone, with the last, is what the terminal is told at once)."""
    first = next((p for p in found.processes if p.diagnosis.verdict.is_hang), None)
    first = first or (found.processes[0] if found.processes else None)
    if first is None:
        return [f"gvlstress watch: {nodeid}: a hang whose processes exited before the report"]
    d = first.diagnosis
    name = f" ({d.pattern})" if d.pattern else ""
    lines = [
        clip(
            f"gvlstress watch: {nodeid}: {d.verdict.value}{name} after {quiet_s:.0f}s without progress", 400
        ),
        "  " + clip(one_line(f"pid {first.pid}: {d.summary}"), 1000),
    ]
    if d.waitfor is not None:
        lines.append("  " + clip(one_line(end_line(d.waitfor)), 600))
    if d.hint:
        lines.append("  " + clip(one_line(f"hint: {d.hint}"), 400))
    return [*lines, f"  report: {found.run_dir}/report.md"]
