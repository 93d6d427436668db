"""What each command's ``--help`` ends with, kept as data: its exit codes (their words from
`gvlstress.errors.ExitCode`, or the command's own) and one or two examples. The epilog is made
from it, and the documentation's CLI reference (`gvlstress.cli.reference`) shows the same data,
so the two cannot drift; tests parse every example.

Also the command class of `hunt` and `sweep`: they take `run`'s options, and list those by name
only, so each command's help fits one screen (the reference shows every option in full).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import click

from gvlstress.errors import ExitCode

WIDTH = 96
"""Epilog lines are kept this short: click does not rewrap a ``\\b`` paragraph."""


@dataclass(frozen=True)
class Usage:
    """A command's exit codes and examples (an example may end with a ``# comment``)."""

    examples: tuple[str, ...]
    exits: tuple[tuple[ExitCode, str], ...]
    notes: str = ""
    """Lines before the exit codes (kept as written, e.g. what the verdicts mean)."""

    def exit_line(self) -> str:
        return "; ".join(f"{int(code)} {words}" for code, words in self.exits)

    def epilog(self) -> str:
        parts = []
        if self.notes:
            parts.append("\b\n" + self.notes.rstrip("\n"))
        wrapped = textwrap.wrap("Exit codes: " + self.exit_line(), WIDTH, subsequent_indent="  ")
        parts.append("\b\n" + "\n".join(wrapped))
        parts.append("\b\nExamples:\n" + "\n".join(f"  {e}" for e in self.examples))
        return "\n".join(parts) + "\n"


USAGES: dict[str, Usage] = {}
"""Every command's usage by command name (the group's under ``""``), for the reference."""


def usage(
    command: str,
    *examples: str,
    exits: Iterable[ExitCode | tuple[ExitCode, str]] = (),
    notes: str = "",
) -> str:
    """Register a command's exit codes and examples; return its epilog. A bare code is said in
    ExitCode's own words."""
    said = tuple(e if isinstance(e, tuple) else (e, e.label) for e in exits)
    made = Usage(tuple(examples), said, notes)
    USAGES[command] = made
    return made.epilog()


def group_epilog() -> str:
    """``gvlstress --help``: every exit code in one line each, then the two main examples."""
    codes = "\n".join(f"  {int(c):<4} {c.meaning}" for c in ExitCode)
    examples = (
        "gvlstress inspect 4242 --tree      # judge a hung process and its workers",
        "gvlstress run --workers 5 --rayon 16",
    )
    USAGES[""] = Usage(examples, tuple((c, c.meaning) for c in ExitCode))
    return f"\b\nExit codes:\n{codes}\n\b\nExamples:\n" + "\n".join(f"  {e}" for e in examples) + "\n"


class TakesRunOptions(click.Command):
    """A command that takes `run`'s shared options: its help lists them by name (one short
    paragraph) after its own options, and points to ``gvlstress run --help`` for what they do."""

    def __init__(self, *args: Any, shared: Iterable[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shared = frozenset(shared)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        own: list[tuple[str, str]] = []
        shared: list[str] = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.name in self.shared:
                shared.append(record[0].split(" ")[0].rstrip(","))
            else:
                own.append(record)
        with formatter.section("Options"):
            formatter.write_dl(own)
        if shared:
            with formatter.section("Run options (as for run; what each does: gvlstress run --help)"):
                names = textwrap.wrap(", ".join(shared), WIDTH - 4, break_on_hyphens=False)
                formatter.write("".join(f"{'':>{formatter.current_indent}}{line}\n" for line in names))


class LazyChoice(click.Choice[str]):
    """A choice whose names are read when first needed (a value to check, a help to show), so
    that defining a command does not import the catalogue its names come from."""

    def __init__(self, load: Callable[[], Iterable[str]]) -> None:
        self._load: Callable[[], Iterable[str]] | None = load
        self._names: tuple[str, ...] = ()
        self.case_sensitive = True

    @property
    def choices(self) -> tuple[str, ...]:
        if self._load is not None:
            self._names, self._load = tuple(self._load()), None
        return self._names

    @choices.setter
    def choices(self, names: Iterable[str]) -> None:
        self._names, self._load = tuple(names), None
