"""One look at a set of processes: what the caller knows of them going in, and the one value the
look pipeline (`gvlstress.look`) hands the judge (`judge.across`).

``run`` at a stall, ``inspect`` (with or without ``--tree``), ``inspect --core`` and ``watch`` all
describe what they know as `Subject`s and get a `Look` back; none of them judges on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gvlstress.model.cores import CoreSource
from gvlstress.model.proc import ProbeFinding, ProbeKind, ProcSample
from gvlstress.model.stacks import Capture
from gvlstress.model.wiring import Relatives, Wiring


@dataclass(frozen=True)
class Subject:
    """A process the caller asks about, and what it knows of it."""

    pid: int
    progress_tid: int | None = None
    """The thread a progress signal watches (``run``: the one calling the target, i.e. the
    worker's main thread; ``watch``: the job's main thread); None without a signal (``inspect``):
    then a closed wait set needs a named shape to be a deadlock, and burning is ``busy``."""
    presample: ProcSample | None = None
    """/proc taken before the look (``run`` samples a window ahead of a due worker), so the look
    need not wait for its first CPU delta."""
    focus: bool = True
    """May be stopped for its stacks and looked at over the window with its relatives. A
    bystander (a busy sibling of a quiet worker) is read from /proc only, unless a focused
    process turns out deadlocked."""
    evidence: bool = False
    """Its stacks are wanted whatever one snapshot says: a hang about to be reported (a busy
    worker at the launch deadline shows its busiest frames)."""

    @property
    def progress(self) -> bool:
        return self.progress_tid is not None


@dataclass(frozen=True)
class Looked:
    """One process over the look: its /proc finding (from the first and last samples, before
    stacks decided it), its capture (the first look's stacks merged by thread id, the later
    looks as resamples) and every /proc sample taken."""

    finding: ProbeFinding
    capture: Capture | None
    samples: tuple[ProcSample, ...]
    stops: int = 0
    """How often the look's stack tools stopped the process (one voluntary switch per thread
    each, which `judge.activity` discounts)."""


@dataclass(frozen=True)
class Look:
    """Everything one look saw, for the judge: each process over the window, how they are
    related, and what connects them."""

    processes: Mapping[int, Looked]
    relatives: Relatives = field(default_factory=Relatives)
    wiring: Wiring = field(default_factory=Wiring)
    progress: frozenset[int] = frozenset()
    """The processes with a progress signal (their `Subject.progress_tid` is the finding's)."""
    subjects: tuple[int, ...] = ()
    """The processes asked about, in the caller's order; the rest are relatives (children,
    peers, the parent a fork came from) taken in so that a wait is judged by what they do."""
    window_s: float = 0.0
    """How long it looked (0 for a core, or when one snapshot decided every subject)."""
    origins: frozenset[int] = frozenset()
    """Processes read only as the parent a fork came from (the harness itself under ``run
    --start-method fork``): evidence for a rule, never judged."""
    core: CoreSource | None = None
    """Set when the look is a core's, offline (one instant, no relatives)."""

    def findings(self) -> dict[int, ProbeFinding]:
        """Every judged process's /proc finding (those that exited meanwhile, and origins, left out)."""
        return {
            p: x.finding
            for p, x in self.processes.items()
            if p not in self.origins and x.finding.kind is not ProbeKind.GONE
        }

    def captures(self) -> dict[int, Capture]:
        return {p: c for p, x in self.processes.items() if (c := x.capture) is not None}
