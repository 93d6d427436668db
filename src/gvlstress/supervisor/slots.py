"""Per-worker bookkeeping inside one wave: what the heartbeat board and the live statistics say
of each slot, and the frozen facts the verdict rules (`judge.outcome`) are fed at the end."""

from __future__ import annotations

from dataclasses import dataclass, field

import psutil

from gvlstress.judge.names import Match
from gvlstress.judge.outcome import Ending, SlotFacts
from gvlstress.model import Capture, Diagnosis, ProbeFinding, ProcSample, WorkerOutcome
from gvlstress.model.live import WorkerStatus
from gvlstress.model.waitfor import WaitFor
from gvlstress.system.heartbeat import Phase, SlotState


@dataclass
class Slot:
    """Mutable bookkeeping of one worker slot in one wave (never leaves the supervisor)."""

    slot: int
    state: SlotState | None = None
    outcome: WorkerOutcome | None = None
    finding: ProbeFinding | None = None
    stalls: int = 0
    suspected_at: float | None = None
    """Last heartbeat seen when the worker was suspected; a later beat clears the suspicion."""
    next_probe_at: float = 0.0
    confirmed: bool = False
    threads_max: int = 0
    cpu_s: float | None = None
    cpu_prev: tuple[float, float] | None = None
    cpu_percent: float | None = None
    first_beat_iters: tuple[float, int] | None = None
    presample: ProcSample | None = None
    """/proc taken one probe window before the slot is due (see `probing.Prober.presample`)."""
    pinned: tuple[int, int] | None = None
    """--squeeze as checked: (threads within the CPUs, threads seen)."""
    preloaded: bool | None = None
    """--delays: the delay layer is mapped in this worker (None: not checked yet)."""
    switch_interval: float | None = None
    """The GIL switch interval a finished worker reported (--switch-interval)."""
    capture: Capture | None = None
    named: Match | None = None
    """A pattern the look across processes or stacks named (see `probing.Prober.look_again`)."""
    waitfor: WaitFor | None = None
    """Its wait-for chain at the stall (`judge.ends`)."""
    proc: psutil.Process | None = field(default=None, repr=False)

    @property
    def pid(self) -> int | None:
        return self.state.pid if self.state else None

    @property
    def iterating(self) -> bool:
        return self.state is not None and self.state.phase >= Phase.ITERATING

    def last_beat(self, started: float) -> float:
        """The last heartbeat (the wave's start before the first)."""
        return self.state.last_beat if self.state and self.state.last_beat else started

    def facts(self, now: float, started: float, threshold: float) -> SlotFacts:
        """What the verdict rules are given about this slot."""
        return SlotFacts(
            pid=self.pid,
            iterations=self.state.iterations if self.state else 0,
            quiet_s=now - self.last_beat(started),
            threshold=threshold,
            confirmed=self.confirmed,
            finding=self.finding,
            finished_share=self.state is not None and self.state.phase == Phase.DONE,
            named=self.named,
            waitfor=self.waitfor,
        )

    def outcome_of(self, ending: Ending, diagnosis: Diagnosis | None) -> WorkerOutcome:
        """This worker's outcome from its verdict and what the wave saw of it."""
        st = self.state
        return WorkerOutcome(
            slot=self.slot,
            pid=self.pid,
            verdict=ending.verdict,
            iterations=st.iterations if st else 0,
            threads_max=max(self.threads_max, len(self.finding.threads) if self.finding else 0),
            cpu_s=self.cpu_s,
            rayon_threads=st.rayon_threads if st else None,
            batch_s_max=st.batch_s_max if st and st.batch_s_max else None,
            probe=self.finding,
            capture=self.capture,
            diagnosis=diagnosis,
            stalls=self.stalls,
            detail=ending.detail,
            exit_code=ending.exit_code,
            signal=ending.signal,
        )

    def read(self, st: SlotState, now: float) -> None:
        """Take the board's row for this slot (a later beat clears a suspicion)."""
        if self.suspected_at is not None and st.last_beat and st.last_beat > self.suspected_at:
            self.suspected_at = None  # it progressed: `stalls` keeps the fact, the verdict becomes slow
            self.next_probe_at = 0.0
        if st.phase == Phase.ITERATING and st.iterations and self.first_beat_iters is None:
            self.first_beat_iters = (now, st.iterations)
        self.threads_max = max(self.threads_max, st.threads)
        self.state = st

    def sample(self, now: float) -> None:
        """CPU and threads of the live worker for the display (psutil, one read)."""
        pid = self.pid
        if not pid or self.outcome is not None:
            return
        try:
            if self.proc is None or self.proc.pid != pid:
                self.proc = psutil.Process(pid)
            with self.proc.oneshot():
                t = self.proc.cpu_times()
                self.threads_max = max(self.threads_max, self.proc.num_threads())
            cpu = t.user + t.system
            if self.cpu_prev is not None and now > self.cpu_prev[0]:
                self.cpu_percent = 100.0 * (cpu - self.cpu_prev[1]) / (now - self.cpu_prev[0])
            self.cpu_prev = (now, cpu)
            self.cpu_s = cpu
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            pass

    def status(self, now: float) -> WorkerStatus:
        """This slot's row of the live display."""
        st = self.state
        rate = 0.0
        if st and self.first_beat_iters and now > self.first_beat_iters[0]:
            rate = (st.iterations - self.first_beat_iters[1]) / (now - self.first_beat_iters[0])
        return WorkerStatus(
            slot=self.slot,
            pid=self.pid,
            iterations=st.iterations if st else 0,
            rate=rate,
            threads=self.threads_max,
            cpu_percent=self.cpu_percent,
            state=self.label(),
        )

    def label(self) -> str:
        if self.outcome is not None:
            return self.outcome.verdict.value
        if self.confirmed:
            return "deadlock"
        if self.suspected_at is not None and self.finding is not None:
            return f"suspect:{self.finding.kind.value}"
        return self.state.phase.name.lower() if self.state else "queued"
