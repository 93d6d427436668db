"""`gvlstress inspect` and `doctor`: live processes looked at (never killed), this host checked."""

from __future__ import annotations

from dataclasses import dataclass

from gvlstress.model.cores import CoreSource
from gvlstress.model.diagnosis import Diagnosis
from gvlstress.model.proc import ProbeFinding
from gvlstress.model.run import HostFacts
from gvlstress.model.stacks import Capture
from gvlstress.model.verdicts import Verdict


@dataclass(frozen=True)
class ThreadActivity:
    """What one thread did while `inspect --watch` looked: the progress signal inspect lacks."""

    tid: int
    comm: str
    cpu_s: float
    voluntary_ctxt: int
    nonvoluntary_ctxt: int
    syscalls: int | None
    """Read- and write-type syscalls made (None where /proc/.../io is unreadable)."""
    waits_seen: tuple[str, ...]
    """The blocking syscalls it was seen in, in order of first sight."""
    kernel_s: float = 0.0
    """CPU time spent in the kernel (stime): what any syscall costs, poll and wait4 too, which
    the read/write counters miss; a pure spin or computation spends ~none there."""


@dataclass(frozen=True)
class Activity:
    seconds: float
    samples: int
    threads: tuple[ThreadActivity, ...]
    summary: str


@dataclass(frozen=True)
class Inspected:
    """One live process looked at by `gvlstress inspect` (never killed)."""

    pid: int
    cmdline: str
    finding: ProbeFinding
    capture: Capture | None
    diagnosis: Diagnosis
    activity: Activity | None = None


@dataclass(frozen=True)
class InspectResult:
    processes: tuple[Inspected, ...]
    environment: HostFacts
    started_at: str
    command: tuple[str, ...]
    run_dir: str
    core: CoreSource | None = None
    """Set when the process was judged offline from a core (``inspect --core``)."""
    by: str = "inspect"
    """Which command looked: 'inspect', or 'watch' (after the job went quiet: a progress signal)."""

    @property
    def looks_deadlocked(self) -> bool:
        """A hang named: a deadlock, or a spin a rule explained (exit 1)."""
        return any(p.diagnosis.verdict in (Verdict.DEADLOCK, Verdict.LIVELOCK) for p in self.processes)


@dataclass(frozen=True)
class Check:
    """One of `gvlstress doctor`'s checks of this host."""

    name: str
    ok: bool
    detail: str
    hint: str | None = None
    required: bool = True
    """A failed required check means a run would miss a diagnostic view (exit 4)."""
