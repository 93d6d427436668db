"""Campaign results: sequential tests, hunts, plans, compared runs, sweeps, Slurm jobs.

The engines in `campaign` (and the API that runs them) fill these in; the reporters read them,
and never the engines."""

from __future__ import annotations

from dataclasses import dataclass

from gvlstress.model.profile import HostProfile
from gvlstress.model.rate import Rate
from gvlstress.model.run import RunResult
from gvlstress.scenario import Scenario


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
    per_cpu_minute: tuple[float, float, float] | None
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


@dataclass(frozen=True)
class RunStats:
    run_dir: str
    name: str
    versions: str
    """What the workers actually imported (the release under the loader record's `version_key`,
    e.g. 'mylib 0.36.0'), else the target's versions."""
    config: str
    waves: int
    hung: int
    errored: int
    rate: Rate
    batches: int
    batches_per_s: float | None
    """Median per-worker throughput (batches per second of iterating)."""
    threads: str
    """OS threads per worker (median of the most seen) and the rayon pool size."""


@dataclass(frozen=True)
class Pair:
    a: int
    b: int
    p_value: float


@dataclass(frozen=True)
class Comparison:
    runs: tuple[RunStats, ...]
    pairs: tuple[Pair, ...]
    sequential: SequentialResult | None = None
    """``compare --sequential``: the SPRT on the two runs' discordant wave pairs."""
    hosts: tuple[tuple[str, HostProfile], ...] = ()
    """Runs made with ``--like``: the profile's host and the host each ran on, labelled."""


@dataclass(frozen=True)
class SweepCell:
    """One cell: its settings, the run that measured it, and the hazard with intervals."""

    workers: int
    rayon: int
    amplifier: str
    run_dir: str
    waves: int
    hung: int
    batches: int
    cpu_minutes: float
    hazard: Rate
    """Hung waves per batch (shown per 1000 batches)."""
    per_cpu_minute: tuple[float, float, float] | None


@dataclass(frozen=True)
class SweepResult:
    """Every cell in grid order, where the sweep's report went, and the heatmap if drawn."""

    cells: tuple[SweepCell, ...]
    workers: tuple[int, ...]
    rayon: tuple[int, ...]
    amplifiers: tuple[str, ...]
    base: Scenario
    sweep_dir: str
    heatmap: str | None
    """Path of heatmap.png, or None when matplotlib (the `plot` extra) is not installed."""
    interrupted: bool = False


@dataclass(frozen=True)
class SlurmJobs:
    """The scripts written and, when submitted, the job ids."""

    directory: str
    array_script: str
    merge_script: str
    submit_script: str
    array_job: str | None = None
    merge_job: str | None = None
