"""Release numbers as a loader's behaviour changes with them: ``0.36.0`` -> ``(0, 36, 0)``.

Stdlib only (a target's worker half compares its loader's release too). Lenient on purpose: a
suffix counts by its digits (``0.37.0rc1`` -> ``(0, 37, 0)``) and anything past the third part
is ignored, so a version string read from another interpreter never raises.
"""

from __future__ import annotations


def version_tuple(v: str) -> tuple[int, ...]:
    """The first three parts of `v` as numbers (a part without digits counts as 0)."""
    parts = []
    for p in v.split(".")[:3]:
        digits = "".join(ch for ch in p if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)
