"""Real bugs as positive controls: which catalogue entries to run, and how they fared on this
host as JSON (`gvlstress selftest --real`; the entries are `controls.catalogue`, the result
types `model.controls`)."""

from __future__ import annotations

from gvlstress.controls.catalogue import BUGS_DIR, CATALOGUE, NAMES, NO_RUNTIME
from gvlstress.model.controls import RealBug, RealBugsResult

__all__ = ["BUGS_DIR", "CATALOGUE", "NAMES", "NO_RUNTIME", "as_dict", "select"]


def select(names: tuple[str, ...] | None) -> tuple[RealBug, ...]:
    """The entries named (all by default), in catalogue order."""
    return tuple(b for b in CATALOGUE if not names or b.name in names)


def as_dict(result: RealBugsResult) -> dict[str, object]:
    return {
        "run_dir": result.run_dir,
        "passed": result.passed,
        "entries": [
            {
                "name": o.bug.name,
                "title": o.bug.title,
                "source": o.bug.source,
                "packages": list(o.bug.packages),
                "control_packages": list(o.bug.control_packages or o.bug.packages),
                "expected_pattern": o.bug.pattern,
                "expected_verdict": o.bug.verdict,
                "shape": o.bug.shape,
                "python": o.bug.python,
                "env": dict(o.bug.env),
                "args": list(o.bug.args),
                "skipped": o.skipped,
                "verdict": o.verdict,
                "pattern": o.pattern,
                "caught": o.caught,
                "named": o.named,
                "summary": o.summary,
                "inspect_s": o.inspect_s,
                "control_clean": o.control_clean,
                "control_note": o.control_note,
                "control_s": o.control_s,
                "error": o.error,
            }
            for o in result.outcomes
        ],
    }
