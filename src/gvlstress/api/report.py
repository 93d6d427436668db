"""``gvlstress report DIR``: a run's human reports written again from its run.json (after a
format change, or for a run an older gvlstress wrote: its built-in target's loader record is
filled in as it is read)."""

from __future__ import annotations

from pathlib import Path

from gvlstress import store
from gvlstress.api.output import write_human
from gvlstress.errors import UsageError
from gvlstress.targets.registry import recorded


def rerender(run_dir: Path, force: bool = False) -> dict[str, Path]:
    """report.md and junit.xml again from run.json (never over them without `force`)."""
    result = store.read(run_dir, recorded)
    existing = [p.name for p in (run_dir / "report.md", run_dir / "junit.xml") if p.exists()]
    if existing and not force:
        raise UsageError(f"{run_dir} already has {', '.join(existing)}", hint="add --force to overwrite")
    return write_human(result, run_dir)
