"""The live view of a run: a rich table on a terminal, plain log lines otherwise; the
sweep's progress bar.
"""

from __future__ import annotations

from rich.console import Console
from rich.live import Live
from rich.markup import escape
from rich.table import Table

from gvlstress.model import (
    ProbeFinding,
    Verdict,
    WaveResult,
    WorkerOutcome,
    plural,
)
from gvlstress.model.live import WorkerStatus
from gvlstress.reporters.console.paths import shown_path
from gvlstress.scenario import Scenario
from gvlstress.store import error_ref
from gvlstress.system.text import clip, one_line

_STYLE = {
    Verdict.OK: "green",
    Verdict.SLOW: "yellow",
    Verdict.CANCELLED: "dim",
    Verdict.ERROR: "magenta",
    Verdict.CRASH: "magenta",
    Verdict.STALLED: "red",
    Verdict.LIVELOCK: "red",
    Verdict.DEADLOCK: "bold red",
}


PLAIN_PROGRESS_EVERY_S = 5.0


def verdict_text(v: Verdict) -> str:
    return f"[{_STYLE[v]}]{v.value}[/]"


class ConsoleObserver:
    """Live display of a run. `live=False` prints a line per event instead of a table."""

    def __init__(self, console: Console, live: bool) -> None:
        self._said: dict[tuple[int, int], tuple[object, ...]] = {}
        self.console = console
        self.live = live
        self._live: Live | None = None
        self._waves = 0
        self._last_plain = 0.0
        self._ticks = 0
        self._run_dir: str | None = None

    def run_started(self, run_dir: str) -> None:
        self._run_dir = shown_path(run_dir)

    def _table(self, index: int, rows: tuple[WorkerStatus, ...]) -> Table:
        table = Table(title=f"wave {index + 1}/{self._waves}", expand=False)
        for col in ("slot", "pid", "iterations", "batches/s", "OS threads", "CPU %", "state"):
            table.add_column(col, justify="right" if col not in ("state",) else "left")
        for r in rows:
            table.add_row(
                str(r.slot),
                str(r.pid or "-"),
                str(r.iterations),
                f"{r.rate:.1f}",
                str(r.threads or "-"),
                "-" if r.cpu_percent is None else f"{r.cpu_percent:.0f}",
                escape(r.state),
            )
        return table

    def wave_started(self, index: int, scenario: Scenario) -> None:
        self._waves = scenario.waves
        self._ticks = 0
        if self.live:
            self._live = Live(
                self._table(index, ()), console=self.console, refresh_per_second=4, transient=True
            )
            self._live.start()
        else:
            self.console.print(
                f"wave {index + 1}/{scenario.waves}: {scenario.workers} workers, "
                f"rayon={scenario.rayon or 'default'}, target={scenario.target}, fault={scenario.fault}",
                markup=False,
                highlight=False,
            )

    def progress(self, index: int, rows: tuple[WorkerStatus, ...]) -> None:
        self._ticks += 1
        if self._live is not None:
            self._live.update(self._table(index, rows))
        elif self._ticks % int(PLAIN_PROGRESS_EVERY_S / 0.5) == 0:
            done = sum(r.iterations for r in rows)
            states = ",".join(sorted({r.state for r in rows}))
            self.console.print(f"  wave {index + 1}: {done} batches so far; states: {states}", markup=False)

    def suspected(self, index: int, slot: int, finding: ProbeFinding) -> None:
        said = (index, slot, finding.kind, finding.reason.split(" for ")[0])
        if self._said.get((index, slot)) == said:
            return  # re-probed, same finding: said once
        self._said[(index, slot)] = said
        self.console.print(
            f"  wave {index + 1} slot {slot} (pid {finding.pid}) went quiet: "
            f"/proc says {finding.kind.value}: {one_line(finding.reason)}",
            highlight=False,
            markup=False,
        )

    def warn(self, message: str) -> None:
        self.console.print(f"[yellow]warning[/]: {escape(clip(one_line(message), 1000))}", highlight=False)

    def capturing(self, index: int, pids: tuple[int, ...]) -> None:
        if pids:
            self.console.print(
                f"  wave {index + 1}: capturing stacks of {plural(len(pids), 'hung worker')} before killing them"
            )

    def kept_alive(self, wave: WaveResult, seconds: float, report: str) -> None:
        pid = wave.kept_alive
        self.console.print(
            f"\nworker {pid} (wave {wave.index + 1}) is kept alive, hung as it was found, for up to "
            f"{_span(seconds)}; Ctrl-C ends it (the harness kills it on the way out).\n"
            f"  gvlstress inspect {pid}\n"
            f"  py-spy dump --native --pid {pid}\n"
            f"  gdb -p {pid}   (then: thread apply all bt)\n"
            f"report: {report}",
            highlight=False,
            markup=False,
        )

    def wave_finished(self, wave: WaveResult) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None
        iters = sum(w.iterations for w in wave.workers)
        how = f", detected by {wave.detected_by} after {wave.detect_s:.1f}s" if wave.detected_by else ""
        self.console.print(
            f"wave {wave.index + 1}: {verdict_text(wave.verdict)} in {wave.wall_s:.1f}s "
            f"({iters} batches{how})"
        )
        for w in wave.workers:
            if w.verdict not in (Verdict.OK, Verdict.CANCELLED):
                self.console.print(self._worker_line(wave, w), highlight=False)
        for gap in wave.amplifiers.get("not_applied", ()):
            self.console.print(
                f"  [yellow]amplifier not applied[/]: {escape(one_line(gap))}", highlight=False
            )

    def _worker_line(self, wave: WaveResult, w: WorkerOutcome) -> str:
        """One line per worker whatever it said, cut to the terminal; where the whole of it is
        when that is a file of its own (an error's traceback)."""
        prefix = f"  slot {w.slot} pid {w.pid}: {{}} after {w.iterations} batches; "
        head = prefix.format(w.verdict.value)
        said = one_line(w.verdict_line)
        where = ""
        if w.verdict is Verdict.ERROR and w.detail:  # the run directory's path when it leaves room
            ref = error_ref(wave, w)
            full = f"{one_line(self._run_dir)}/{ref}" if self._run_dir else ref
            where = f" (whole: {full if len(head) + len(full) + 70 < self.console.width else ref})"
        # in a narrow terminal the pointer stays and what was said gets 10 characters
        room = max(self.console.width - len(head) - len(where) - 1, 10)
        if len(said) > room:
            said = said[: room - 1] + "…"
        return prefix.format(verdict_text(w.verdict)) + escape(said) + escape(where)


class SweepBar:
    """The sweep's campaign progress bar (cells done of all; the current cell's label)."""

    def __init__(self, console: Console) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            TextColumn("sweep"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=console,
            disable=not console.is_terminal,
        )
        self.task = self.progress.add_task("", total=None)
        self.console = console

    def __enter__(self) -> SweepBar:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def __call__(self, done: int, total: int, label: str) -> None:
        self.progress.update(self.task, completed=done, total=total, description=label)
        if not self.console.is_terminal and label != "done":
            self.console.print(f"sweep cell {done + 1}/{total}: {label}", highlight=False, markup=False)


def _span(seconds: float) -> str:
    """90 -> '90s', 600 -> '10m', 7200 -> '2h'."""
    for unit, size in (("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{seconds / size:g}{unit}"
    return f"{seconds:g}s"
