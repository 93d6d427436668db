"""Sphinx extension (docs/conf.py): each line ``::: gvlstress NAME`` of a page becomes the
section gvlstress generates from its own code (`gvlstress.cli.reference.expand`): the CLI
reference, the verdicts, patterns, catalogue, exit codes, run.json's schema, the scenarios.
The tests call the same function, so the site and the code cannot disagree. It reports through
Sphinx's logging only (a warning fails the strict build)."""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

from gvlstress.cli.reference import MARKER, expand

log = logging.getLogger(__name__)


def generate(app: Sphinx, docname: str, source: list[str]) -> None:
    """Expand the page's generated sections; an unknown one is a warning (an error with -W)."""
    if not MARKER.search(source[0]):
        return
    try:
        source[0] = expand(source[0], docname)
    except KeyError as exc:
        log.warning(str(exc.args[0]), location=docname)
        return
    log.debug("%s: generated sections expanded", docname)


def literal_epilog(app: Sphinx, ctx: Any, lines: list[str]) -> None:
    """A command's epilog (exit codes, examples) is plain text: no rST markup in `shards/*/`."""
    lines[:] = [line.replace("\\", "\\\\").replace("*", "\\*") for line in lines]


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("sphinx_click")
    app.connect("source-read", generate)
    app.connect("sphinx-click-process-epilog", literal_epilog)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
