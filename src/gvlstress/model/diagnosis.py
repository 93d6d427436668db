"""Why a worker (or a process) is judged what it is, with evidence a reader can check."""

from __future__ import annotations

from dataclasses import dataclass, field

from gvlstress.model.evidence import Fact
from gvlstress.model.verdicts import Verdict
from gvlstress.model.waitfor import WaitFor


@dataclass(frozen=True)
class WaitGroup:
    """Threads parked on one futex address, and where they block."""

    addr: int
    tids: tuple[int, ...]
    blocked_in: str
    """The most telling frame the group shares (e.g. Mutex::lock_contended)."""
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Diagnosis:
    """Why a worker is judged what it is, with evidence a reader can check."""

    verdict: Verdict
    summary: str
    evidence: tuple[str, ...]
    """The facts worded, one line each (`judge.words`; what run.json and the reports show)."""
    groups: tuple[WaitGroup, ...] = ()
    gil_owner: int | None = None
    missing: tuple[str, ...] = ()
    """Views that could not be taken (py-spy denied, no native stack tool, ...)."""
    pattern: str | None = None
    hint: str | None = None
    waitfor: WaitFor | None = None
    """The wait-for chain to its end (every verdict of a look has one; a wave's crash has none)."""
    facts: tuple[Fact, ...] = field(default=(), compare=False, metadata={"local": True})
    """The evidence as facts, in the order of `evidence` (not in run.json: its words are)."""
