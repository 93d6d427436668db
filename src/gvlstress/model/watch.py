"""`gvlstress watch`: a long job's progress as /proc counts it, the quiet spells it had, and how the
watch ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from gvlstress.model.inspect import InspectResult


@dataclass(frozen=True, slots=True)
class ProcCounters:
    """One process of the watched tree at one reading (/proc/PID/stat and io; no ptrace)."""

    pid: int
    cpu_ticks: int
    """utime + stime of every thread so far (clock ticks)."""
    rchar: int | None
    """Bytes read by any read-type syscall so far (None where /proc/PID/io is not ours to read)."""
    wchar: int | None
    minflt: int
    """Minor page faults so far: touching new memory."""
    threads: int


@dataclass(frozen=True, slots=True)
class Stop:
    """A process of the watched tree found stopped (state T), and by what."""

    pid: int
    terminal: int | None
    """The terminal (its device number) whose job control stopped it: it read, wrote or set that,
    its controlling terminal, from a background process group (SIGTTIN, SIGTTOU). None: a
    signal's stop (SIGSTOP, or a SIGTSTP sent): whoever sent it may continue it."""


@dataclass(frozen=True)
class TreeReading:
    """The watched tree at one instant."""

    at: float
    """time.monotonic()."""
    procs: tuple[ProcCounters, ...]
    output_lines: int = 0
    """Lines of the job's output seen so far (only when watch reads the output)."""
    matched_lines: int = 0
    """Lines that matched ``--progress-regex`` so far."""
    heartbeat_mtime: float | None = None
    """The ``--heartbeat`` file's modification time (None: no such file yet)."""

    def pids(self) -> frozenset[int]:
        return frozenset(p.pid for p in self.procs)


@dataclass(frozen=True)
class Progress:
    """What changed between two readings, in words (empty: nothing that counts as progress)."""

    signs: tuple[str, ...] = ()

    @property
    def moved(self) -> bool:
        return bool(self.signs)


class HangAction(StrEnum):
    """What ``--on-hang`` does once a hang is reported."""

    KEEP = "keep"
    KILL = "kill"
    SIGNAL = "signal"


@dataclass(frozen=True)
class Quiet:
    """A quiet spell: no progress for the stall time, then a look and what it found."""

    at_s: float
    """Seconds into the watch when the look was taken."""
    quiet_s: float
    verdict: str
    """The worst verdict of the tree ('idle', 'busy', 'deadlock', ...)."""
    summary: str
    hang: bool


@dataclass(frozen=True)
class WatchResult:
    """A whole watch: the job, its quiet spells, the hang if one was found, how it ended."""

    command: tuple[str, ...]
    """The job's command line as started (redacted), or the attached process's."""
    pid: int
    attached: bool
    """``--pid``: watching a job someone else started (never killed unless --on-hang kill)."""
    started_at: str
    seconds: float
    stall_s: float
    quiet: tuple[Quiet, ...] = ()
    hang: InspectResult | None = None
    """The look that found the hang, as inspect reports it (None: no hang)."""
    action: str | None = None
    """What was done about the hang ('kept running', 'killed the tree', 'sent SIGQUIT')."""
    exit_code: int | None = None
    """The job's own exit code, when it ended by itself (negative: killed by that signal)."""
    stopped_by: str | None = None
    """SIGINT/SIGTERM to gvlstress itself: what ended the watch early."""
    blind: tuple[str, ...] = field(default_factory=tuple)
    """What this watch could not see (another user's process, ptrace not allowed), said plainly."""
    report_dir: str = ""

    @property
    def hung(self) -> bool:
        return self.hang is not None
