"""Frozen dataclasses that flow from probes to classification to reporters.

Every layer speaks these types; only reporters turn them into text or JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from gvlstress.scenario import Scenario
from gvlstress.stats import Rate


class Verdict(StrEnum):
    """What happened to a worker (or, as its worst worker, a wave or a run).

    ``cancelled`` is a worker the harness stopped while it was still healthy, because a sibling
    hung or crashed or the run was interrupted: it is neither a pass nor a failure of its own.
    ``idle``, ``busy`` and ``stopped`` are said by ``inspect`` only (it has no progress signal).
    """

    OK = "ok"
    IDLE = "idle"
    BUSY = "busy"
    STOPPED = "stopped"
    CANCELLED = "cancelled"
    SLOW = "slow"
    ERROR = "error"
    CRASH = "crash"
    STALLED = "stalled"
    LIVELOCK = "livelock"
    DEADLOCK = "deadlock"

    @property
    def severity(self) -> int:
        """Order used to pick a wave's verdict: its worst worker's."""
        return _SEVERITY[self]

    @property
    def is_hang(self) -> bool:
        return self in (Verdict.DEADLOCK, Verdict.LIVELOCK, Verdict.STALLED)

    @property
    def is_failure(self) -> bool:
        return self in (Verdict.CRASH, Verdict.ERROR)


_SEVERITY = {v: i for i, v in enumerate(Verdict)}


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 wave', '3 waves', '1 batch', '2 batches': counts read as a person writes them."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {many or (word + 'es' if word.endswith(('s', 'sh', 'ch', 'x')) else word + 's')}"


def worst(verdicts: list[Verdict] | tuple[Verdict, ...]) -> Verdict:
    """The most severe verdict, ``ok`` for none."""
    return max(verdicts, key=lambda v: v.severity, default=Verdict.OK)


@dataclass(frozen=True, slots=True)
class ThreadSample:
    """One thread as ``/proc/PID/task/TID`` showed it at one instant."""

    tid: int
    comm: str
    state: str
    wchan: str | None
    syscall: int | None
    """Syscall number the thread is blocked in; None when running or unreadable."""
    futex_addr: int | None
    """First argument of a futex syscall: threads on one address wait on one lock or latch."""
    utime: int
    stime: int
    voluntary_ctxt: int | None
    nonvoluntary_ctxt: int | None
    run_ns: int | None = None
    """Precise CPU time from ``schedstat`` (None where the kernel does not provide it)."""
    args: tuple[int, ...] = ()
    """The blocked syscall's six arguments (fd, futex op and timeout pointer, wait4's pid...)."""
    fd_target: str | None = None
    """What the fd of a blocked read/write/accept... links to (``pipe:[123]``, ``socket:[4]``)."""
    syscr: int | None = None
    """Read-type syscalls so far (``/proc/.../io``): with ``syscw``, the syscall activity."""
    syscw: int | None = None

    @property
    def ticks(self) -> int:
        return self.utime + self.stime


@dataclass(frozen=True)
class ProcSample:
    """All threads of one process at one instant (monotonic seconds)."""

    pid: int
    at: float
    threads: tuple[ThreadSample, ...]
    sigcgt: int = 0
    """Signals the process catches (a daemon waiting for SIGTERM is idle, not deadlocked)."""


class WaitKind(StrEnum):
    RUNNING = "running"
    STOPPED = "stopped"
    LOCK = "lock"
    """An untimed futex wait: a lock, a latch, a condition variable; only another thread ends it."""
    TIMED = "timed"
    """A futex wait with a timeout: it wakes by itself (Event.wait(1.0), a GIL waiter's 5 ms)."""
    IO = "io"
    POLL = "poll"
    SLEEP = "sleep"
    CHILD = "child"
    SIGNAL = "signal"
    DISK = "disk"
    OTHER = "other"

    @property
    def external(self) -> bool:
        """Ends by itself or from outside the process: never part of a closed wait cycle."""
        return self in _EXTERNAL


_EXTERNAL = frozenset(
    {
        WaitKind.TIMED,
        WaitKind.IO,
        WaitKind.POLL,
        WaitKind.SLEEP,
        WaitKind.CHILD,
        WaitKind.SIGNAL,
        WaitKind.DISK,
    }
)


@dataclass(frozen=True, slots=True)
class Wait:
    kind: WaitKind
    syscall: str | None
    detail: str
    """Human words: 'read() on fd 3 (pipe:[30468])', 'futex 0x55d0 (no timeout)'."""
    addr: int | None = None
    child: int | None = None
    """wait4/waitid: the pid waited for (-1: any child)."""
    fd_target: str | None = None


@dataclass(frozen=True, slots=True)
class ThreadDelta:
    """One thread across two samples: what decides parked vs burning."""

    tid: int
    comm: str
    state: str
    """State at the second sample."""
    wchan: str | None
    syscall: int | None
    futex_addr: int | None
    cpu_s: float
    voluntary_ctxt: int | None
    nonvoluntary_ctxt: int | None
    state_first: str = "S"
    """State at the first sample."""
    parked: bool = False
    """Asleep at a sample and (almost) no CPU in between (see diagnose.thread_deltas)."""
    args: tuple[int, ...] = ()
    fd_target: str | None = None
    wait: Wait | None = None
    """What it waits on (waits.classify); None only in records older than that field."""


@dataclass(frozen=True)
class FutexGroup:
    """Threads blocked on one futex address (one lock, condvar or latch)."""

    addr: int
    tids: tuple[int, ...]


class ProbeKind(StrEnum):
    """What two ``/proc`` samples (and, once taken, the stacks) say about a process.

    With a progress signal (``run``: the heartbeat went quiet) burning CPU is ``livelock`` and a
    wait that ends from outside is ``waiting``; without one (``inspect``) they are ``busy`` and
    ``idle``, since one look cannot tell a livelock from work or a hang from a quiet service.
    """

    DEADLOCK = "deadlock"
    LIVELOCK = "livelock"
    WAITING = "waiting"
    STALLED = "stalled"
    STOPPED = "stopped"
    BUSY = "busy"
    IDLE = "idle"
    GONE = "gone"


@dataclass(frozen=True)
class ProbeFinding:
    """The /proc verdict for one process, with the evidence that decided it."""

    pid: int
    kind: ProbeKind
    window_s: float
    cpu_s: float
    """CPU seconds all threads used during the window."""
    threads: tuple[ThreadDelta, ...]
    futex_groups: tuple[FutexGroup, ...]
    reason: str
    samples: tuple[ProcSample, ...] = field(default=(), metadata={"file_only": True})
    """The two raw samples (written as proc.json next to the report, not into run.json)."""
    progress_tid: int | None = None
    """The thread that must make progress (run: the one calling the target; inspect: main)."""
    chain: tuple[str, ...] = ()
    """How the wait of that thread was followed, one line per step (evidence)."""
    idle: tuple[str, ...] = ()
    """Threads recognised as idle by design, as 'tid: what' (listed, never evidence)."""

    @property
    def n_parked(self) -> int:
        return sum(1 for t in self.threads if t.parked)

    @property
    def n_futex(self) -> int:
        return sum(len(g.tids) for g in self.futex_groups)


@dataclass(frozen=True, slots=True)
class Frame:
    """One stack frame, Python or native; native names are demangled and hash-free."""

    name: str
    file: str | None = None
    line: int | None = None
    module: str | None = None


@dataclass(frozen=True)
class ToolRun:
    """How one diagnostic tool fared: the report says what is missing and why."""

    tool: str
    ok: bool
    elapsed_s: float
    command: tuple[str, ...] = ()
    error: str | None = None


@dataclass(frozen=True, slots=True)
class PyThread:
    """An interpreter thread as py-spy saw it."""

    tid: int
    name: str | None
    owns_gil: bool
    active: bool
    frames: tuple[Frame, ...]


@dataclass(frozen=True, slots=True)
class NativeThread:
    """A thread's native stack (eu-stack, gdb or pystack), innermost frame first."""

    tid: int
    name: str | None
    frames: tuple[Frame, ...]


@dataclass(frozen=True, slots=True)
class ThreadView:
    """One OS thread seen three ways, merged by thread id."""

    tid: int
    comm: str
    state: str
    syscall: str | None
    futex_addr: int | None
    wchan: str | None
    cpu_s: float
    voluntary_ctxt: int | None
    nonvoluntary_ctxt: int | None
    python: PyThread | None
    native: tuple[Frame, ...]

    @property
    def owns_gil(self) -> bool:
        return bool(self.python and self.python.owns_gil)


@dataclass(frozen=True)
class Capture:
    """Everything captured from one process before it was killed (or, for inspect, left alone)."""

    pid: int
    threads: tuple[ThreadView, ...]
    pyspy: ToolRun
    native: ToolRun
    raw: dict[str, str] = field(default_factory=dict, metadata={"file_only": True})
    """Raw tool output by file name; written next to the report, not into run.json."""


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
    groups: tuple[WaitGroup, ...] = ()
    gil_owner: int | None = None
    missing: tuple[str, ...] = ()
    """Views that could not be taken (py-spy denied, no native stack tool, ...)."""
    pattern: str | None = None
    hint: str | None = None


@dataclass(frozen=True)
class WorkerOutcome:
    """One worker of one wave: what it did and how it ended."""

    slot: int
    pid: int | None
    verdict: Verdict
    iterations: int
    threads_max: int
    cpu_s: float | None
    rayon_threads: int | None
    """Pool size the worker's target reported (None if it never got that far)."""
    batch_s_max: float | None
    iter_s: float | None = None
    """Seconds the worker spent iterating (first batch to last): the denominator of throughput."""
    env_inherited: dict[str, str] = field(default_factory=dict)
    """Thread knobs the worker process was born with (redacted)."""
    env_effective: dict[str, str] = field(default_factory=dict)
    """Thread knobs after gvlstress applied --rayon, i.e. what the target saw (redacted)."""
    target_info: dict[str, Any] = field(default_factory=dict)
    probe: ProbeFinding | None = None
    capture: Capture | None = None
    diagnosis: Diagnosis | None = None
    stalls: int = 0
    """How often its heartbeat went quiet past the stall threshold."""
    detail: str | None = None
    """Traceback of an error, exit status of a crash, why it was cancelled."""
    exit_code: int | None = None
    signal: int | None = None
    stderr_tail: tuple[str, ...] = ()
    """The last lines the worker wrote to stderr (redacted): an LLVM error, a Rust panic."""

    @property
    def verdict_line(self) -> str:
        """One line saying why: the diagnosis summary, else the last line of the detail."""
        if self.diagnosis is not None:
            return self.diagnosis.summary
        lines = (self.detail or "").strip().splitlines()
        return lines[-1] if lines else self.verdict.value


@dataclass(frozen=True)
class WaveResult:
    """One launch of N workers."""

    index: int
    verdict: Verdict
    wall_s: float
    workers: tuple[WorkerOutcome, ...]
    detected_by: str | None = None
    """'stall' (a heartbeat went quiet and /proc confirmed) or 'timeout' (the launch deadline)."""
    detect_s: float | None = None
    """Seconds from wave start to the hang verdict."""
    interrupted: bool = False
    env: dict[str, str] = field(default_factory=dict)
    """What the harness set in every worker of this wave before the target was imported."""
    amplifiers: dict[str, Any] = field(default_factory=dict)
    """The amplifiers applied to this wave and what they did (cgroup, throttling, pinning)."""
    kept_alive: int | None = None
    """Pid of the hung worker left running after the wave (``hunt --keep-alive``)."""
    setting: str | None = None
    """The explored setting this wave ran on (``hunt --explore``), e.g. 'rayon=8' or 'chaos'."""
    shard: int | None = None
    """The shard that ran this wave (``--shard I/N``); `index` is then the campaign's global index."""
    seed: int | None = None
    """The wave's seed, from the run's seed and the global index (worker `slot` adds `slot`)."""
    origin: str | None = None
    """After a merge that had to renumber: the run directory and wave it came from."""
    leftovers: int = 0
    """Processes the workers started that outlived them (a daemonized child, say) and were killed
    when the wave ended."""
    harness: dict[str, int] = field(default_factory=dict)
    """The harness's own fds, threads, maps and peak RSS after this wave (flat in a healthy run),
    and `at_ms`, when the wave's files were done, from the first wave's start."""


@dataclass(frozen=True)
class Shard:
    """Shard `index` of `count` runs the campaign's global waves index, index + count, ..."""

    index: int
    count: int


@dataclass(frozen=True)
class HostShard:
    """One input of a merge: which shard, on which host, and how its hang rate compares."""

    run_dir: str
    shard: Shard | None
    environment: dict[str, Any]
    command: tuple[str, ...]
    waves: int
    hung: int
    batches: int
    p_value: float
    """Fisher's exact test of this input's hung/clean waves against all the others'."""
    out_of_line: bool
    """p_value below 0.05 divided by the number of inputs (Bonferroni): one odd node is a finding."""


@dataclass(frozen=True)
class ArmStats:
    """What the waves of one explored setting showed (``hunt --explore``)."""

    label: str
    flags: str
    """The flags that select this setting, to append to the command (e.g. '--rayon 8 --chaos 1')."""
    waves: int
    hangs: int
    batches: int
    cpu_minutes: float
    per_cpu_minute: tuple[float, float, float] | None
    """Hangs per CPU-minute of workers (rate, low, high), exact Poisson 95%; None if never run."""
    hazard: Rate
    """Hung waves per batch."""
    p_best: float
    """Posterior probability that this setting has the most hangs per CPU-minute."""


@dataclass(frozen=True)
class Summary:
    waves: int
    hung: int
    crashed: int
    errored: int
    verdict: Verdict
    interrupted: bool


@dataclass(frozen=True)
class RunResult:
    """Everything one ``gvlstress run`` learnt; the source of every report."""

    scenario: Scenario
    environment: dict[str, Any]
    target: dict[str, Any]
    waves: tuple[WaveResult, ...]
    started_at: str
    finished_at: str
    command: tuple[str, ...]
    run_dir: str
    interrupted_by: int | None = None
    """Signal number that stopped the run, if one did."""
    warnings: tuple[str, ...] = ()
    """Things a reader must know (e.g. workers imported another version than expected)."""
    exploration: tuple[ArmStats, ...] = ()
    """``hunt --explore``: every setting tried, best first."""
    shard: Shard | None = None
    """Set when this run is one shard of a campaign (``--shard I/N``)."""
    hosts: tuple[HostShard, ...] = ()
    """Set by ``gvlstress merge``: every input run with its host facts and an outlier test."""

    @property
    def summary(self) -> Summary:
        return Summary(
            waves=len(self.waves),
            hung=sum(1 for w in self.waves if w.verdict.is_hang),
            crashed=sum(1 for w in self.waves if w.verdict is Verdict.CRASH),
            errored=sum(1 for w in self.waves if w.verdict is Verdict.ERROR),
            verdict=worst([w.verdict for w in self.waves]),
            interrupted=self.interrupted_by is not None,
        )


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
    environment: dict[str, Any]
    started_at: str
    command: tuple[str, ...]
    run_dir: str

    @property
    def looks_deadlocked(self) -> bool:
        return any(p.diagnosis.verdict is Verdict.DEADLOCK for p in self.processes)


@dataclass(frozen=True)
class SequentialResult:
    """A Wald SPRT run over trials in order (waves, or discordant wave pairs of two runs)."""

    question: str
    """What was tested, H0 and H1 spelled out."""
    decision: str | None
    """'H0', 'H1', or None when the trials ran out first."""
    answer: str
    """The decision in words, with the error rates it carries."""
    trials: int
    """Trials the test used (all of them when undecided)."""
    events: int
    llr: float
    lower: float
    upper: float
    alpha: float
    beta: float
    expected: tuple[float, float]
    """Wald's average trials to a decision under H0 and under H1."""
    fixed: int
    """Trials a fixed-size test with the same error rates needs."""


@dataclass(frozen=True)
class HuntResult:
    """What `hunt` found: the run, why it stopped, and the hazard with its intervals."""

    run: RunResult
    stopped: str
    hangs: int
    waves: int
    batches: int
    cpu_minutes: float
    hazard: Rate
    """Hung waves per batch run (shown per 1000 batches)."""
    per_cpu_minute: tuple[float, float, float]
    """Hangs per CPU-minute of the workers: (rate, low, high), exact Poisson 95%."""
    batches_to_hang: int | None
    seconds_to_hang: float | None
    sequential: SequentialResult | None = None
    """``hunt --sequential P0,P1``: the SPRT on the hang rate per wave."""


@dataclass(frozen=True)
class Plan:
    """`gvlstress plan`: the clean launches needed to claim a bound, and what they cost here."""

    rate: float
    confidence: float
    waves: int
    """Hang-free waves needed: the least n with (1 - rate)^n <= 1 - confidence."""
    hosts: int
    run_dir: str | None = None
    """The run the costs were measured on (--from)."""
    batches_per_wave: float | None = None
    waves_per_hour: float | None = None
    """Measured on the run: its waves over the wall time they took (one host)."""
    done_clean: int | None = None
    """Clean waves the run already has (they count towards the plan if nothing else changed)."""
    hung: int | None = None
    """Hung waves in the run: with any, no bound below the observed rate can be claimed."""
