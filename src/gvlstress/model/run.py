"""A run: its waves, their workers, and what a campaign adds (shards, hosts, explored settings)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gvlstress.model.diagnosis import Diagnosis
from gvlstress.model.loader import LoaderFacts
from gvlstress.model.proc import ProbeFinding
from gvlstress.model.profile import Recreation
from gvlstress.model.rate import Rate
from gvlstress.model.stacks import Capture
from gvlstress.model.verdicts import Verdict, worst
from gvlstress.scenario import Scenario


@dataclass(frozen=True)
class HostFacts:
    """What a report reader needs to know about the host a run ran on (thread knobs only from
    its environment, redacted)."""

    host: str = "?"
    python: str = ""
    implementation: str = ""
    executable: str = ""
    platform: str = ""
    machine: str = ""
    kernel: str = ""
    libc: str = ""
    cpu_count: int = 0
    affinity: int = 0
    cpu_quota: float | None = None
    """CPUs allowed by the cgroup CPU quota; None when unlimited or unknown."""
    cpu_quota_source: str | None = None
    cpu_budget: float = 0.0
    """What the process can really use: min(affinity, quota)."""
    thread_knobs: dict[str, str] = field(default_factory=dict)
    gvlstress: str = ""
    tools: dict[str, Any] = field(default_factory=dict)
    """Diagnostic tools found (py-spy, the native stack tool, c++filt) and the ptrace policy."""


@dataclass(frozen=True)
class TargetFacts:
    """What a run ran: the target, its options and versions, and what was done before the waves."""

    name: str
    entry: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    python: str = ""
    """The workers' interpreter."""
    warm_up: dict[str, Any] | None = None
    """The warm-up (targets that ask for one): done or why not, and how long it took."""
    preloaded: dict[str, Any] | None = None
    """``--preload``: what the fork server imported and its threads."""
    parent_warmed: str | None = None
    """``--warm-parent``: what ran in the supervisor before the workers forked."""
    facts: dict[str, Any] = field(default_factory=dict)
    """Anything else the target reports about itself (the dataset it built, its contract)."""
    loader: LoaderFacts = field(default_factory=LoaderFacts)
    """What the loader knows about itself (the target's record): what the audit, the report and
    ``compare`` read about it."""


@dataclass(frozen=True)
class AuditItem:
    """One finding of the thread-cap audit (computed once with the verdicts, kept in run.json)."""

    severity: str
    """'info' or 'warn'."""
    message: str


@dataclass(frozen=True)
class WorkerOutcome:
    """One worker of one wave: what it did and how it ended."""

    slot: int
    """The worker's place in its wave, 0 to workers - 1."""
    pid: int | None
    """Its process id (None if it never started)."""
    verdict: Verdict
    """How it ended (the documentation's Verdicts page)."""
    iterations: int
    """Batches it completed."""
    threads_max: int
    """The most OS threads seen in it."""
    cpu_s: float | None
    """CPU seconds it used (None when unknown)."""
    rayon_threads: int | None
    """Pool size the worker's target reported (None if it never got that far)."""
    batch_s_max: float | None
    """Its slowest batch, in seconds."""
    iter_s: float | None = None
    """Seconds the worker spent iterating (first batch to last): the denominator of throughput."""
    env_inherited: dict[str, str] = field(default_factory=dict)
    """Thread knobs the worker process was born with (redacted)."""
    env_effective: dict[str, str] = field(default_factory=dict)
    """Thread knobs after gvlstress applied --rayon, i.e. what the target saw (redacted)."""
    target_info: dict[str, Any] = field(default_factory=dict)
    """What the target reported about itself in this worker (its `describe()`)."""
    probe: ProbeFinding | None = None
    """The /proc finding when it was probed: per-thread state, waits, CPU, futex groups."""
    capture: Capture | None = None
    """Its three views merged by thread id, when it was captured (hung)."""
    diagnosis: Diagnosis | None = None
    """The verdict explained: pattern, hint, evidence."""
    stalls: int = 0
    """How often its heartbeat went quiet past the stall threshold."""
    detail: str | None = None
    """Traceback of an error, exit status of a crash, why it was cancelled."""
    exit_code: int | None = None
    """The exit code of a worker that died."""
    signal: int | None = None
    """The signal that killed a worker that died."""
    stderr_tail: tuple[str, ...] = ()
    """The last lines the worker wrote to stderr (redacted): an LLVM error, a Rust panic."""
    raised: str | None = None
    """The type of the exception an ``error`` worker raised (its traceback is `detail`)."""
    message: str | None = None
    """That exception's message alone (bounded: see `gvlstress.system.failure`)."""

    @property
    def verdict_line(self) -> str:
        """One line saying why: the diagnosis summary, else the last line of the detail."""
        if self.diagnosis is not None:
            return self.diagnosis.summary
        lines = (self.detail or "").strip().splitlines()
        return lines[-1] if lines else self.verdict.value


@dataclass(frozen=True)
class Symptom:
    """One symptom of a reported hang (the loader's `KnownHang`) beside what this wave showed of it."""

    name: str
    reported: str
    seen: str
    matches: bool


@dataclass(frozen=True)
class WaveResult:
    """One launch of N workers."""

    index: int
    """The wave's index, from 0 (a campaign's global index for a shard)."""
    verdict: Verdict
    """Its worst worker's verdict."""
    wall_s: float
    """Seconds from its start to its end."""
    workers: tuple[WorkerOutcome, ...]
    """One entry per worker."""
    detected_by: str | None = None
    """'stall' (a heartbeat went quiet and /proc confirmed) or 'timeout' (the launch deadline)."""
    detect_s: float | None = None
    """Seconds from wave start to the hang verdict."""
    interrupted: bool = False
    """Whether Ctrl-C or SIGTERM stopped it."""
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
    symptoms: tuple[Symptom, ...] = ()
    """A hung wave's symptoms beside those of its loader's known hang (`judge.symptoms`; only for
    a target whose record names one)."""

    @property
    def batches(self) -> int:
        return sum(w.iterations for w in self.workers)

    @property
    def cpu_s(self) -> float:
        return sum(w.cpu_s or 0.0 for w in self.workers)

    @property
    def batch_s_max(self) -> float:
        """The slowest batch any worker of this wave reported."""
        return max((w.batch_s_max or 0.0 for w in self.workers), default=0.0)


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
    environment: HostFacts
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
    vs_given: tuple[float, float, float] | None = None
    """Its hangs per CPU-minute over the setting as given (ratio, low, high: exact 95%); None
    when either has not run or neither hung."""


@dataclass(frozen=True)
class Summary:
    """The counts a reader looks at first (run.json's `summary`)."""

    waves: int
    """Waves run."""
    hung: int
    """Waves with a deadlock, livelock or stalled worker."""
    crashed: int
    """Waves whose worst worker crashed."""
    errored: int
    """Waves whose worst worker raised."""
    verdict: Verdict
    """The run's verdict: its worst wave's."""
    interrupted: bool
    """Whether Ctrl-C or SIGTERM stopped it."""


@dataclass(frozen=True)
class RunResult:
    """Everything one ``gvlstress run`` learnt; the source of every report."""

    scenario: Scenario
    """Every resolved setting of the run."""
    environment: HostFacts
    """The host it ran on."""
    target: TargetFacts
    """What it ran."""
    waves: tuple[WaveResult, ...]
    """Every wave, in order."""
    started_at: str
    """When the run started (ISO 8601, UTC)."""
    finished_at: str
    """When it ended (ISO 8601, UTC)."""
    command: tuple[str, ...]
    """The command line that ran it (redacted)."""
    run_dir: str
    """The run directory."""
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
    audit: tuple[AuditItem, ...] = ()
    """The thread-cap audit, computed once when the run ended (see judge.audit)."""
    stopped: str | None = None
    """Why the waves stopped before the last one (a hunt's decision, a time budget), if they did."""
    like: Recreation | None = None
    """``--like``: the host profile recreated, each condition beside this host, what was not."""
    path: str = field(default="", compare=False, metadata={"local": True})
    """The run directory on this disk, as made (never written to a file: `run_dir`, redacted, is
    what reports show; the console shows this through a pattern that spells no secret)."""

    @property
    def batches(self) -> int:
        """Batches every worker of every wave ran: the denominator of a hazard per batch."""
        return sum(w.batches for w in self.waves)

    @property
    def cpu_minutes(self) -> float:
        """CPU-minutes of every worker of every wave: the denominator of hangs per CPU-minute."""
        return sum(w.cpu_s for w in self.waves) / 60

    @property
    def hung(self) -> int:
        return sum(1 for w in self.waves if w.verdict.is_hang)

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
