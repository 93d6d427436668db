"""Paths as the console shows them: usable, and no secret spelled out.

Reports keep a path redacted (``reports/api_key=<redacted>/RUN``); a person at the console
needs one that opens. Where a part of the path looks like a secret (a ``token=...`` folder, a
32-hex Bazel output base), that part becomes ``*``: a shell pattern that, checked here, names
this path and no other, so ``cat PATTERN/report.md`` works and the secret is not printed.
"""

from __future__ import annotations

import glob
import os

from gvlstress.system.redact import REDACTED, redact_path, redact_text


def _part(part: str) -> str:
    shown = redact_text(part)
    if shown == part:
        return glob.escape(part)
    return "*".join(glob.escape(piece) for piece in shown.split(REDACTED))


def shown_path(path: str) -> str:
    """`path` as it is where nothing in it looks like a secret; else with each secret-looking
    piece a ``*`` when that pattern names `path` alone; else redacted."""
    redacted = redact_path(path)
    if redacted == path:
        return path
    pattern = "/".join(_part(p) for p in path.split("/"))
    try:
        found = glob.glob(pattern)
    except (OSError, ValueError):
        return redacted
    same = [f for f in found if os.path.realpath(f) == os.path.realpath(path)]
    return pattern if len(found) == 1 and same else redacted
