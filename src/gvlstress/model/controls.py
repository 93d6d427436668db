"""Controls and their results: selftest's controls, the real-bug catalogue's entries, and how
each fared on this host (`gvlstress selftest`, `selftest --real`).

The engines (`controls.selftest`, `controls.realbugs`, the catalogue in `controls.catalogue`)
fill these in; the reporters read them, and never the engines.

A real bug's shape, for the docs: ``cycle`` (threads or processes wait on each other), ``spin``
(a thread burns CPU in a loop for something that cannot come), ``lost task`` (a process pool
waits for a result no worker holds), ``peer`` (a wait on a pipe, socket or thread that will never
act, or on a lock whose holder died), ``lost wake-up`` (a wait for an item, a notify or a
cancellation that was lost on the way).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gvlstress.model.verdicts import Verdict
from gvlstress.model.waitfor import End


@dataclass(frozen=True)
class Control:
    """One control of `gvlstress selftest`: a short run of the native fixture in one fault mode
    and what it must give (negative controls: no hang, no pattern)."""

    name: str
    expect: Verdict
    pattern: str | None
    settings: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def negative(self) -> bool:
        return self.pattern is None


@dataclass(frozen=True)
class Attempt:
    verdict: Verdict
    patterns: tuple[str, ...]
    detect_s: float | None
    run_dir: str

    def caught(self, c: Control) -> bool:
        return self.verdict is c.expect

    def named(self, c: Control) -> bool:
        return self.caught(c) and (c.pattern in self.patterns if c.pattern else not self.patterns)


@dataclass(frozen=True)
class Row:
    control: Control
    attempts: tuple[Attempt, ...]

    @property
    def caught(self) -> int:
        return sum(a.caught(self.control) for a in self.attempts)

    @property
    def named(self) -> int:
        return sum(a.named(self.control) for a in self.attempts)

    @property
    def passed(self) -> bool:
        return self.named == len(self.attempts)

    @property
    def verdicts(self) -> str:
        counts = Counter(a.verdict.value for a in self.attempts)
        return ", ".join(f"{n}x {v}" if len(self.attempts) > 1 else v for v, n in counts.most_common())

    @property
    def named_patterns(self) -> str:
        counts = Counter(p for a in self.attempts for p in a.patterns)
        return ", ".join(f"{n}x {p}" if len(self.attempts) > 1 else p for p, n in counts.most_common()) or "-"

    @property
    def detection(self) -> str:
        times = [a.detect_s for a in self.attempts if a.detect_s is not None]
        if not times:
            return "-"
        lo, hi = f"{min(times):.1f}", f"{max(times):.1f}"
        return f"{lo}s" if lo == hi else f"{lo}-{hi}s"

    def cells(self) -> list[str]:
        """The table row both reporters show (without the pass/fail mark, which they style)."""
        n = len(self.attempts)
        return [
            self.control.name,
            self.expected,
            self.verdicts,
            self.named_patterns,
            self.detection,
            f"{self.caught}/{n}",
            f"{self.named}/{n}",
        ]

    @property
    def expected(self) -> str:
        c = self.control
        return c.expect.value + (f" / {c.pattern}" if c.pattern else " (negative control)")


SELFTEST_HEADER = ("class", "expected", "verdicts", "named patterns", "detection", "caught", "named")
"""The columns of `Row.cells`."""


@dataclass(frozen=True)
class SelftestResult:
    rows: tuple[Row, ...]
    run_dir: str

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.rows)


SHAPES = ("cycle", "spin", "lost task", "peer", "lost wake-up")
"""What a real bug's hang is made of (`RealBug.shape`), in the order the docs group them."""


@dataclass(frozen=True)
class RealBug:
    """One entry of the real-bug catalogue (`controls.catalogue`); its trigger program lives in
    ``controls/bugs`` (`controls.realbug.script`)."""

    name: str
    title: str
    source: str
    """The public report or documentation of the hang."""
    program: str
    pattern: str
    packages: tuple[str, ...] = ()
    """Pinned requirements (``name==version``) beyond the standard library."""
    tree: bool = False
    """Inspect the process with its descendants (the hang spans processes)."""
    control_packages: tuple[str, ...] | None = None
    """The control's pins when the fix is a release (None: the trigger's, the fix is in the code)."""
    verdict: str = "deadlock"
    """The verdict `inspect` must give (``livelock`` for a named spin)."""
    python: str | None = None
    """The CPython minor version (``"3.8"``) the pins need; None: the one running gvlstress."""
    env: tuple[tuple[str, str], ...] = ()
    """Environment variables the trigger and the control run with."""
    shape: str = "cycle"
    """What the hang is made of: ``cycle``, ``spin``, ``lost task``, ``peer``, ``lost wake-up``
    (see SHAPES)."""
    args: tuple[str, ...] = ()
    """The program's arguments (a variant), for the trigger and, after ``control``, the control."""
    end: End | None = None
    """Where its wait-for chain ends, when not where its pattern's does (`judge.ends.END_OF`)."""


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
