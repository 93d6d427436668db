"""The optional parts of the install: what each extra brings, and the one line a command that
needs a missing one says (exit 2) before it starts, never a traceback half-way through.

The default install is what ``inspect``, ``watch`` and ``run`` need (click, rich, psutil,
py-spy, pystack); ``[stats]`` adds scipy for the campaigns' exact statistics (``hunt``,
``sweep``, ``compare --sequential``), ``[plot]`` matplotlib for the sweep's heatmap, ``[all]``
both.
"""

from __future__ import annotations

import importlib.util

from gvlstress.errors import UsageError

EXTRAS = {"stats": "scipy", "plot": "matplotlib"}
"""Each extra and the module it brings."""


def have(extra: str) -> bool:
    """Is the extra's module importable here (found, not imported: cheap)?"""
    return importlib.util.find_spec(EXTRAS[extra]) is not None


def need(extra: str, what: str) -> None:
    """Refuse `what` in one line (exit 2) when its extra is not installed."""
    if not have(extra):
        raise UsageError(
            f"{what} needs {EXTRAS[extra]}, which the [{extra}] extra installs",
            hint=f"pip install 'gvlstress[{extra}]' (or 'gvlstress[all]')",
        )
