"""The catalogue of real bugs used as positive controls: documented hangs in Python and PyPI packages, each with the
documented fix or workaround as its control (`gvlstress selftest --real`).

Each entry's trigger (a standalone program in ``controls/bugs``) puts a real process into the
hang and prints ``look PID`` and ``ready``; the harness inspects that process as a user would
and expects the entry's verdict (``deadlock``, or ``livelock`` for a spin; exit 1 either way)
and its pattern. ``PROGRAM control`` runs the fixed variant, which must finish with exit 0.
Entries with packages (or a CPython of their own) run in an interpreter that has exactly the
pinned versions: this one if it does, else a venv built once in the cache. An entry's fields
and the shapes that group the entries in the docs: ``model.controls``.

The entries live in one module per family of shapes (the docs group them by `SHAPES`, in this
order): `cycles` (threads or processes waiting on each other), `spins` (a livelock) and `lost`
(a lost task, a peer that will never act, a lost wake-up).

Modules (one line each, from their docstrings):

- `cycles`: The catalogue's cycles: real bugs whose threads or processes wait on each other,
  each for what the next holds (a join before a drain, a task...
- `lost`: The catalogue's hangs on something lost or gone: a task or result no worker of a
  process pool holds, a peer (pipe, socket, thread, the holder of a...
- `spins`: The catalogue's spins: real bugs where a thread burns CPU in a loop waiting for
  something that cannot come (work from threads that wait for the...
"""

from __future__ import annotations

from gvlstress.controls.catalogue.cycles import CYCLES
from gvlstress.controls.catalogue.lost import LOST
from gvlstress.controls.catalogue.spins import SPINS
from gvlstress.controls.realbug import BUGS_DIR, NO_RUNTIME
from gvlstress.model.controls import RealBug

__all__ = ["BUGS_DIR", "CATALOGUE", "NAMES", "NO_RUNTIME"]

CATALOGUE: tuple[RealBug, ...] = (*CYCLES, *SPINS, *LOST)
"""Every entry, grouped by shape in the order of `SHAPES` (the order `selftest --real` runs them)."""
NAMES = tuple(b.name for b in CATALOGUE)
