"""The documentation's CLI reference, made from the click commands themselves: a sphinx-click
directive over the `gvlstress` group renders every command's usage, options and epilog (its exit
codes and examples: `gvlstress.cli.help.USAGES`, the data each ``--help`` ends with).

`GENERATED` is every generated section a page can ask for with a line ``::: gvlstress NAME``:
the reporters' tables (`gvlstress.reporters.docs`, fed the real-bug catalogue and the controls
from here: the reporters never import the controls) and, here, ``cli``; `expand` replaces those
lines (the docs extension `docs/_ext/gvlstress_docs.py` calls it, and so do the tests).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

import click

from gvlstress.cli.group import cli, load_all
from gvlstress.controls.catalogue import CATALOGUE
from gvlstress.controls.selftest import CONTROLS
from gvlstress.reporters import docs


def commands() -> dict[str, click.Command]:
    """Every visible command of `gvlstress`, by name."""
    load_all()
    return {name: cmd for name, cmd in sorted(cli.commands.items()) if not cmd.hidden}


def reference() -> str:
    """The whole CLI reference: the group and each command, as click knows them (MyST)."""
    return "\n".join(
        [
            "```{eval-rst}",
            ".. click:: gvlstress.cli.main:cli",
            "   :prog: gvlstress",
            "   :nested: full",
            "```",
            "",
        ]
    )


GENERATED: dict[str, Callable[[], str]] = {
    **docs.GENERATED,
    "catalogue": partial(docs.catalogue, CATALOGUE),
    "controls": partial(docs.controls, CONTROLS),
    "cli": reference,
}

MARKER = re.compile(r"^::: gvlstress ([\w-]+)[ \t]*$", re.M)
"""A line asking for a generated section (the docs extension and the tests find them the same way)."""


def expand(markdown: str, page: str = "a page") -> str:
    """A page's Markdown with each ``::: gvlstress NAME`` line replaced by that section; an
    unknown NAME is an error naming the page (the strict build fails on it)."""

    def made(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATED:
            raise KeyError(f"{page}: no generated section {name!r} (known: {', '.join(sorted(GENERATED))})")
        return GENERATED[name]().rstrip("\n")

    return MARKER.sub(made, markdown)
