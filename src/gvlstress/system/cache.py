"""Where gvlstress keeps what outlives a run: datasets, test environments, the warm-up lock.

One rule for every user of it (targets, tests, the warm-up): ``$GVLSTRESS_CACHE``, else
``$XDG_CACHE_HOME/gvlstress``, else ``~/.cache/gvlstress``.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """$GVLSTRESS_CACHE, else $XDG_CACHE_HOME/gvlstress, else ~/.cache/gvlstress."""
    if own := os.environ.get("GVLSTRESS_CACHE"):
        return Path(own)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "gvlstress"
