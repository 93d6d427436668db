"""The documentation's CLI reference, made from the click commands themselves: for each command
a ``mkdocs-click`` directive (its usage and every option, as click knows them), then its exit
codes and examples (`gvlstress.cli.help.USAGES`, the data its ``--help`` epilog is made from).

`GENERATED` is every generated section a page can ask for with a line ``::: gvlstress NAME``:
the reporters' tables (`gvlstress.reporters.docs`) and, here, ``cli``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable

import click

from gvlstress.cli.help import USAGES, Usage
from gvlstress.cli.main import cli
from gvlstress.reporters import docs


def commands() -> dict[str, click.Command]:
    """Every visible command of `gvlstress`, by name."""
    return {name: cmd for name, cmd in sorted(cli.commands.items()) if not cmd.hidden}


def _where(cmd: click.Command) -> tuple[str, str]:
    """(module, attribute) under which a command is defined, for mkdocs-click to import it."""
    module = getattr(cmd.callback, "__module__", "")
    name = getattr(cmd.callback, "__name__", "")
    if not module or getattr(importlib.import_module(module), name, None) is not cmd:
        raise LookupError(f"command {cmd.name!r} is not a module attribute named after its function")
    return module, name


def _usage_lines(usage: Usage) -> list[str]:
    lines = ["**Exit codes:**", ""]
    lines += [f"- `{int(code)}` {words}" for code, words in usage.exits]
    lines += ["", "**Examples:**", "", "```sh", *usage.examples, "```", ""]
    return lines


def reference() -> str:
    """The whole CLI reference: the group, then each command in name order."""
    lines = [(cli.help or "").strip(), "", "```text", "gvlstress [--version] [-h|--help] COMMAND [ARGS]...", "```", ""]
    lines += _usage_lines(USAGES[""])
    for name, cmd in commands().items():
        module, attribute = _where(cmd)
        lines += [
            "::: mkdocs-click",
            f"    :module: {module}",
            f"    :command: {attribute}",
            f"    :prog_name: gvlstress {name}",
            "    :depth: 1",
            "",
        ]
        if name in USAGES:
            lines += _usage_lines(USAGES[name])
    return "\n".join(lines) + "\n"


GENERATED: dict[str, Callable[[], str]] = {**docs.GENERATED, "cli": reference}

MARKER = re.compile(r"^::: gvlstress ([\w-]+)[ \t]*$", re.M)
"""A line asking for a generated section (the docs hook and the tests find them the same way)."""


def expand(markdown: str, page: str = "a page") -> str:
    """A page's Markdown with each ``::: gvlstress NAME`` line replaced by that section; an
    unknown NAME is an error naming the page (the strict build fails on it)."""

    def made(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATED:
            raise KeyError(f"{page}: no generated section {name!r} (known: {', '.join(sorted(GENERATED))})")
        return GENERATED[name]().rstrip("\n")

    return MARKER.sub(made, markdown)
