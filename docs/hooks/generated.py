"""MkDocs hook (mkdocs.yml: ``hooks``): each line ``::: gvlstress NAME`` of a page becomes the
section gvlstress generates from its own code (`gvlstress.cli.reference.expand`): the CLI
reference, the verdicts, patterns, catalogue, exit codes, run.json's schema, the scenarios.
The tests call the same function, so the site and the code cannot disagree. It reports through
logging only (mkdocs shows it, and --strict turns its warnings into errors)."""

from __future__ import annotations

import logging
from typing import Any

from mkdocs.exceptions import PluginError

from gvlstress.cli.reference import MARKER, expand

log = logging.getLogger("mkdocs.hooks.gvlstress")


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Expand the page's generated sections; an unknown one stops the build."""
    where = str(page.file.src_uri)
    asked = MARKER.findall(markdown)
    if not asked:
        return markdown
    try:
        made = expand(markdown, where)
    except KeyError as exc:
        raise PluginError(str(exc.args[0])) from None
    log.debug("%s: generated %s", where, ", ".join(asked))
    return made
