"""Where a real-bug entry's trigger runs from: its program in ``controls/bugs``, and the exit
code of a host that cannot run it. The entry itself (`controls.catalogue` holds them all) is
`model.controls.RealBug`, with the words its fields take (`model.controls.SHAPES`)."""

from __future__ import annotations

from pathlib import Path

from gvlstress.model.controls import RealBug

BUGS_DIR = Path(__file__).parent / "bugs"
NO_RUNTIME = 4
"""A trigger's exit code when this host lacks what it needs (a skip, never a failure)."""


def script(bug: RealBug) -> Path:
    """The entry's trigger program (``PROGRAM control`` runs its fixed variant)."""
    return BUGS_DIR / f"{bug.program}.py"
