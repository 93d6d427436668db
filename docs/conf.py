"""Sphinx configuration of the documentation site: `pip install -e '.[docs]'`, then
`sphinx-build -W --keep-going -b html docs docs/_build/html` (CI builds it so). Pages are
Markdown (MyST); generated sections come from the code through `_ext/gvlstress_docs.py`, the CLI
reference from the click commands through sphinx-click. Why this stack: about-docs.md."""

from __future__ import annotations

import sys
from pathlib import Path

from gvlstress import __version__

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "gvlstress"
author = "the gvlstress authors"
copyright = "the gvlstress authors"
release = version = __version__

extensions = ["myst_parser", "sphinx_click", "gvlstress_docs"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]

myst_heading_anchors = 4  # [text](page.md#a-heading) links, checked by the build
smartquotes = False  # `--workers` stays two hyphens, as typed

html_theme = "furo"
html_title = "gvlstress"
html_static_path: list[str] = []
