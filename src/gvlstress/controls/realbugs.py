"""Real bugs as positive controls: how an entry of the catalogue (`controls.catalogue`) fared on
this host: its trigger caught and named, its control clean (`gvlstress selftest --real`)."""

from __future__ import annotations

from dataclasses import dataclass

from gvlstress.controls.catalogue import BUGS_DIR, CATALOGUE, NAMES, NO_RUNTIME, SHAPES, RealBug

__all__ = [
    "BUGS_DIR",
    "CATALOGUE",
    "NAMES",
    "NO_RUNTIME",
    "SHAPES",
    "Outcome",
    "RealBug",
    "RealBugsResult",
    "as_dict",
    "select",
]


@dataclass(frozen=True)
class Outcome:
    """One entry on this host: the trigger's inspection and the control's run."""

    bug: RealBug
    skipped: str | None = None
    """Why the entry could not run here (a missing runtime); None when it ran."""
    verdict: str | None = None
    pattern: str | None = None
    summary: str = ""
    inspect_s: float | None = None
    """Seconds `inspect` took on the hung process."""
    control_clean: bool | None = None
    control_note: str = ""
    control_s: float | None = None
    error: str | None = None
    """The trigger never reached its hang (it printed this)."""

    @property
    def caught(self) -> bool:
        return self.verdict == self.bug.verdict

    @property
    def named(self) -> bool:
        return self.caught and self.pattern == self.bug.pattern

    @property
    def passed(self) -> bool:
        return self.skipped is not None or (self.named and self.control_clean is True)


@dataclass(frozen=True)
class RealBugsResult:
    outcomes: tuple[Outcome, ...]
    run_dir: str

    @property
    def passed(self) -> bool:
        return all(o.passed for o in self.outcomes)


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
