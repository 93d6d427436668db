"""The live view of a shrink (a progress bar of the launch budget on a terminal, one line per
launch and per decided step anyway) and its summary."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from gvlstress.model import WaveResult
from gvlstress.model.shrink import ShrinkResult, Step
from gvlstress.reporters import shrunk
from gvlstress.reporters.console.live import verdict_text
from gvlstress.reporters.markdown.shrink import setting_line
from gvlstress.system.text import one_line

_MARK = {"kept": "[green]kept[/]", "dropped": "[red]dropped[/]", "undecided": "[yellow]undecided[/]"}


class ShrinkView:
    """Tells a person what the search does while it does it (must not block)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.progress = Progress(
            TextColumn("shrink"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("launches  {task.description}"),
            TimeElapsedColumn(),
            console=console,
            disable=not console.is_terminal,
        )
        self.task = self.progress.add_task("", total=None)
        self.used = 0

    def __enter__(self) -> ShrinkView:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def step_started(self, number: int, step: Step, budget: tuple[int, int]) -> None:
        self.used = budget[0]
        self.progress.update(self.task, completed=self.used, total=budget[1], description=escape(step.label))
        again = f" (resumed at {step.hangs}/{step.launches} hung)" if step.launches else ""
        self.console.print(f"step {number}: {escape(step.label)}{again}", highlight=False)

    def launched(self, number: int, step: Step, wave: WaveResult) -> None:
        self.used += 1
        self.progress.update(
            self.task,
            completed=self.used,
            description=f"{escape(step.label)}: {step.hangs}/{step.launches} hung",
        )
        self.console.print(
            f"  launch {step.launches}: {verdict_text(wave.verdict)} in {wave.wall_s:.1f}s "
            f"({step.hangs}/{step.launches} hung)",
            highlight=False,
        )

    def step_finished(self, number: int, step: Step) -> None:
        mark = _MARK.get(step.decision, escape(step.decision))
        self.console.print(f"step {number}: {mark}: {escape(one_line(step.why))}", highlight=False)

    def measuring(self, launches: int, timeout: float) -> None:
        self.progress.update(self.task, description="the reproducer, alone")
        self.console.print(
            f"measuring the reproducer alone: {launches} launch(es), {timeout:g}s each at most",
            highlight=False,
        )


def print_shrink(console: Console, r: ShrinkResult, run_dir: str) -> None:
    console.print(
        f"[bold]shrink[/]: {len(r.kept)} of {len(r.steps)} step(s) kept, {r.launches} launch(es), "
        f"{r.seconds:.0f}s; {escape(r.stopped or 'not finished')}",
        highlight=False,
    )
    console.print(
        f"smallest setting: {escape(setting_line(r.original, r.minimal))} (the original hung in {r.original_rate})",
        highlight=False,
    )
    m = r.measured
    if m is not None:
        said = f"could not be measured: {m.error}" if m.error else f"hung in {m.rate} launches run alone"
        console.print(f"reproducer: {escape(said)}", highlight=False)
    for w in r.warnings:
        console.print(f"[yellow]warning[/]: {escape(one_line(w))}", highlight=False)
    where = one_line(run_dir)
    for f in r.files:
        console.print(f"  {where}/{f}", highlight=False, markup=False)
    if r.reproduction is not None:
        console.print(f"  {shrunk.run_line(r.reproduction)}", highlight=False, markup=False)
    console.print(f"report: {where}/shrink.md  (shrink.json beside it)", highlight=False, markup=False)
