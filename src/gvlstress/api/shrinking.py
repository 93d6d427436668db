"""`shrink`: from a run that hung, the smallest setting that still hangs at the stated rate,
then a standalone reproducer of it, measured on its own.

Each step (`campaign.shrink`) is a real `run` of a smaller setting, in its own run directory
under RUN_DIR/shrink/steps/, stopped as soon as the sequential test decides. The state is
RUN_DIR/shrink.json, written after every step and on a stop, so an interrupted shrink resumes
where it stopped (an unfinished step goes on with the launches it had). Bounded by a time
budget and a launch budget per invocation, and by a cap on each step's launches.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from gvlstress import store
from gvlstress.api import reproduce
from gvlstress.api.running import NullObserver, run
from gvlstress.api.waves import MIN_WAVE_S
from gvlstress.campaign import shrink as plan
from gvlstress.campaign import stats
from gvlstress.errors import GvlstressError, UsageError
from gvlstress.model import RunResult, WaveResult
from gvlstress.model.shrink import Measured, Reproduction, ShrinkResult, Step
from gvlstress.reporters import json_report, markdown
from gvlstress.reporters.files import write_atomic
from gvlstress.scenario import Scenario, check_setting
from gvlstress.scenario_sources import resolve
from gvlstress.supervisor import StopFlag
from gvlstress.system import watchdog
from gvlstress.system.redact import REDACTED, redact_path
from gvlstress.targets.registry import get_target, recorded

STEP_LAUNCHES = 30
MAX_LAUNCHES = 200
_SETTINGS = frozenset(Scenario().to_dict()) - {"source", "options"}
MIN_STEP_S = 10.0
"""A step is not started with less time than this left in the budget."""


class ShrinkObserver(Protocol):
    """What a shrink tells the outside as it goes (the console's live view)."""

    def step_started(self, number: int, step: Step, budget: tuple[int, int]) -> None: ...

    def launched(self, number: int, step: Step, wave: WaveResult) -> None: ...

    def step_finished(self, number: int, step: Step) -> None: ...

    def measuring(self, launches: int, timeout: float) -> None: ...


@dataclass(frozen=True)
class Budget:
    """What one invocation may spend."""

    seconds: float | None = None
    launches: int = MAX_LAUNCHES
    per_step: int = STEP_LAUNCHES


def shrink(
    run_dir: Path,
    budget: Budget = Budget(),
    rate: float | None = None,
    ratio: float = plan.RATIO,
    measure: int | None = None,
    observer: ShrinkObserver | None = None,
    stop: StopFlag | None = None,
    force: bool = False,
) -> ShrinkResult:
    """Search from the run in `run_dir` (or resume the search shrink.json holds); write
    shrink.json, shrink.md and the reproducer; measure the reproducer `measure` times (None: as
    many launches as it needs to show a hang at its rate; 0: not at all)."""
    stop = stop if stop is not None else StopFlag()
    with watchdog.guarding():  # one watchdog for every step and the reproducer's measure
        return _shrink(run_dir, budget, rate, ratio, measure, observer, stop, force)


def _shrink(
    run_dir: Path,
    budget: Budget,
    rate: float | None,
    ratio: float,
    measure: int | None,
    observer: ShrinkObserver | None,
    stop: StopFlag,
    force: bool,
) -> ShrinkResult:
    original_run = store.read(run_dir, recorded)
    original, first = _start(run_dir, original_run, rate, ratio, force)
    if first.finished:
        return _finish(run_dir, original_run, original, first, measure, observer, stop)
    test = plan.sprt(first.stated_rate, first.ratio, first.alpha, first.beta)
    pool = max((w.rayon_threads or 0 for wave in original_run.waves for w in wave.workers), default=0)
    pool = pool or len(os.sched_getaffinity(0))
    began = time.monotonic()
    deadline = began + budget.seconds if budget.seconds is not None else None
    state, used = first, 0
    while True:
        step = plan.next_step(original, state.steps, pool)
        why = _why_stop(step, used, budget, deadline, stop)
        if why:
            state = replace(state, stopped=why, finished=step is None)
            break
        assert step is not None
        resuming = bool(state.steps) and not state.steps[-1].done
        number = len(state.steps) if resuming else len(state.steps) + 1
        setting = plan.apply(plan.current(original, state.steps), step.changes)
        if observer is not None:
            observer.step_started(number, step, (used, budget.launches))
        done = _run_step(run_dir, number, step, setting, test, budget, used, deadline, observer, stop)
        used += done.launches - step.launches
        steps = [*state.steps[: number - 1], done]
        state = replace(
            state,
            steps=tuple(steps),
            launches=state.launches + done.launches - step.launches,
            seconds=state.seconds + done.seconds - step.seconds,
        )
        _save(run_dir, state)
        if observer is not None and done.done:
            observer.step_finished(number, done)
        if not done.done and done.launches == step.launches and not stop:  # no launch fitted
            why = (
                "the time budget had no room for a launch" if deadline is not None else "a step ran no launch"
            )
            state = replace(state, stopped=why, finished=False)
            break
    return _finish(run_dir, original_run, original, state, measure, observer, stop)


def _why_stop(
    step: Step | None, used: int, budget: Budget, deadline: float | None, stop: StopFlag
) -> str | None:
    if stop:
        return "interrupted"
    if step is None:
        return "every smaller setting was tried"
    if used >= budget.launches:
        return f"the launch budget ({budget.launches}) was used"
    if deadline is not None and deadline - time.monotonic() < MIN_STEP_S:
        return "the time budget was used"
    return None


def _start(
    run_dir: Path, run_: RunResult, rate: float | None, ratio: float, force: bool
) -> tuple[Scenario, ShrinkResult]:
    """The starting setting and the state: a fresh one, or the one shrink.json holds."""
    hung, waves = run_.hung, len(run_.waves)
    if not hung:
        raise UsageError(
            f"{run_dir} has no hung wave: nothing to shrink",
            hint="shrink a run that hung (exit code 1), e.g. one of gvlstress hunt",
        )
    original = _runnable(run_.scenario, run_dir)
    saved = store.read_shrink(run_dir)
    if saved is not None and not force:
        if saved.original != json.loads(json.dumps(original.to_dict())):  # as shrink.json holds it
            raise UsageError(
                f"{run_dir}/shrink.json belongs to another run", hint="add --force to start over"
            )
        if rate is not None and abs(rate - saved.stated_rate) > 1e-12:
            raise UsageError(
                f"this shrink was started at --rate {saved.stated_rate:g}",
                hint="resume it without --rate, or add --force to start over",
            )
        return original, _resumable(saved, run_dir / "shrink.json")
    if rate is not None and not 0 < rate < 1:
        raise UsageError(f"--rate {rate:g}: must be strictly between 0 and 1", hint="e.g. --rate 0.5")
    if not 1 < ratio <= plan.MAX_RATIO:  # False for NaN too
        raise UsageError(
            f"--ratio {ratio:g}: must be above 1 and at most {plan.MAX_RATIO:g}", hint="e.g. --ratio 4"
        )
    stated = rate if rate is not None else plan.stated_rate(hung, waves)
    return original, ShrinkResult(
        source=redact_path(str(run_dir)),
        original=original.to_dict(),
        original_rate=stats.rate(hung, waves),
        stated_rate=stated,
        ratio=ratio,
        alpha=0.05,
        beta=0.05,
    )


_DECISIONS = ("kept", "dropped", "undecided", "invalid", "pending")


def _resumable(saved: ShrinkResult, path: Path) -> ShrinkResult:
    """A saved shrink as a resumed one can go on from: its test states a rate it can test, and
    each step sets settings a run takes (a hand-edited or damaged shrink.json is refused in one
    line, never a crash halfway through)."""
    hint = "add --force to start the shrink over"
    if not (
        0 < saved.stated_rate < 1
        and 1 < saved.ratio <= plan.MAX_RATIO
        and saved.stated_rate / saved.ratio > 0
    ):
        raise UsageError(
            f"{path}: stated_rate {saved.stated_rate!r} and ratio {saved.ratio!r} state no test", hint=hint
        )
    if not all(0 < x < 0.5 for x in (saved.alpha, saved.beta)):
        raise UsageError(
            f"{path}: alpha {saved.alpha!r} and beta {saved.beta!r} must be between 0 and 0.5", hint=hint
        )
    for n, step in enumerate(saved.steps, 1):
        where = f"{path} step {n}"
        if step.decision not in _DECISIONS or not 0 <= step.hangs <= step.launches:
            raise UsageError(
                f"{where}: {step.hangs}/{step.launches} hung, {step.decision!r}: not a step", hint=hint
            )
        for key, value in step.changes.items():
            if key == "options" and isinstance(value, dict):
                continue
            if key not in _SETTINGS:
                raise UsageError(f"{where}: {key!r} is not a setting", hint=hint)
            try:
                check_setting(key, value, f"{where} {key}")
            except UsageError as exc:
                raise UsageError(exc.message, hint=hint) from None
    return saved


def _runnable(recorded: Scenario, run_dir: Path) -> Scenario:
    """The run's scenario as it ran, refused where run.json kept a secret redacted in a setting
    a step runs with (not its name, nor the report directory: each step writes under RUN_DIR)."""
    unused = ("name", "description", "report_dir", "source")
    hidden = [k for k, v in recorded.to_dict().items() if REDACTED in str(v) and k not in unused]
    if hidden:
        raise UsageError(
            f"{run_dir}/run.json keeps {', '.join(hidden)} redacted (a secret), so its setting cannot be run again",
            hint="shrink a run whose options hold no secret (pass secrets through the environment)",
        )
    raw = recorded.to_dict()
    return resolve(
        None, {k: v for k, v in raw.items() if k not in ("source",)}, {k: f"run.json {k}" for k in raw}
    )


def _run_step(
    run_dir: Path,
    number: int,
    step: Step,
    setting: Scenario,
    test: stats.Sprt,
    budget: Budget,
    used: int,
    deadline: float | None,
    observer: ShrinkObserver | None,
    stop: StopFlag,
) -> Step:
    """Launch `setting` until the test decides, the step's cap or the budgets; the step updated
    (still pending where a budget ended it: the next shrink goes on with its launches)."""
    cap = budget.per_step
    room = budget.launches - used
    want = min(cap - step.launches, room)
    if deadline is not None:  # as many as fit, each with a launch's time: never none for a short budget
        want = min(want, max(1, int((deadline - time.monotonic()) // MIN_WAVE_S)))
    part = len(step.runs)
    sc = replace(
        setting,
        name=f"shrink-{number:02d}",
        waves=max(1, want),
        report_dir=str(run_dir / "shrink" / "steps"),
        keep_core=False,
        seed=(setting.seed + 1_000_003 * number + 7919 * part) % 2**63,  # launches of their own
    )
    started = time.monotonic()

    def until(waves: list[WaveResult]) -> str | None:
        hangs = step.hangs + sum(1 for w in waves if w.verdict.is_hang)
        said = plan.decide(test, hangs, step.launches + len(waves), cap)
        return said[1] if said else None

    watcher = _Watcher(number, step, observer)
    try:
        result = run(sc, observer=watcher, stop=stop, deadline=deadline, until=until)
    except GvlstressError as exc:
        if isinstance(exc, UsageError):
            return replace(step, decision="invalid", why=exc.message, seconds=step.seconds)
        raise
    waves = [w for w in result.waves if not w.interrupted]
    launches, hangs = step.launches + len(waves), step.hangs + sum(1 for w in waves if w.verdict.is_hang)
    clean = max((w.wall_s for w in waves if not w.verdict.is_hang), default=0.0)
    said = plan.decide(test, hangs, launches, cap)
    if said is None:  # stopped, or a budget of this invocation ended it before a decision
        ended = "the launch budget ran out" if launches - step.launches >= room else "the time budget ran out"
        ended = "it was stopped" if stop else f"{ended}: the next shrink goes on with it"
        said = ("pending", f"{hangs}/{launches} hung when {ended}")
    decision, why = said
    where = os.path.relpath(result.path or result.run_dir, run_dir)  # on disk: run_dir is redacted
    return replace(
        step,
        launches=launches,
        hangs=hangs,
        decision=decision,
        why=why,
        runs=(*step.runs, where),
        seconds=step.seconds + time.monotonic() - started,
        batch_s=max(step.batch_s, clean),
    )


class _Watcher(NullObserver):
    """A step's run, as the shrink's view wants it: each finished launch."""

    def __init__(self, number: int, step: Step, observer: ShrinkObserver | None) -> None:
        self.number, self.step, self.observer = number, step, observer
        self.seen: list[WaveResult] = []

    def wave_finished(self, wave: WaveResult) -> None:
        self.seen.append(wave)
        if self.observer is not None:
            hangs = self.step.hangs + sum(1 for w in self.seen if w.verdict.is_hang)
            now = replace(self.step, launches=self.step.launches + len(self.seen), hangs=hangs)
            self.observer.launched(self.number, now, wave)


def _save(run_dir: Path, state: ShrinkResult) -> None:
    json_report.write_shrink(state, run_dir)


def _finish(
    run_dir: Path,
    original_run: RunResult,
    original: Scenario,
    state: ShrinkResult,
    measure: int | None,
    observer: ShrinkObserver | None,
    stop: StopFlag,
) -> ShrinkResult:
    """The reproducer of where the search got to, measured; shrink.json and shrink.md."""
    minimal = plan.current(original, state.steps)
    state = replace(state, minimal=plan.changed(original, minimal))
    kept = state.kept[-1] if state.kept else None
    rep = _reproduction(run_dir, original_run, minimal, state, kept)
    measured: Measured | None = state.measured
    warnings = list(state.warnings)
    if rep is None:
        warnings.append(
            f"no standalone reproducer: the target {minimal.target!r} has no worker half to write out"
        )
    else:
        state = replace(state, files=reproduce.write(rep, run_dir))
        if measured is None and measure != 0 and not stop:
            launches = measure or rep.launches
            if observer is not None:
                observer.measuring(launches, rep.timeout_s)
            measured = reproduce.measure(rep, run_dir / reproduce.FILES[0], state.original_rate, launches)
            rep = reproduce.with_measure(rep, measured)
            reproduce.write(rep, run_dir)
    state = replace(state, reproduction=rep, measured=measured, warnings=tuple(dict.fromkeys(warnings)))
    _save(run_dir, state)
    write_atomic(run_dir / "shrink.md", markdown.render_shrink(state))
    return state


def _reproduction(
    run_dir: Path, original_run: RunResult, minimal: Scenario, state: ShrinkResult, kept: Step | None
) -> Reproduction | None:
    target = get_target(minimal.target)
    prepared = target.prepare(dataclasses.replace(minimal, report_dir=str(run_dir)), run_dir)
    rate = kept.hangs / kept.launches if kept and kept.launches else state.original_rate.p
    timeout = reproduce.timeout_for(minimal, state.steps, original_run)
    evidence = reproduce.evidence_line(kept, state.original_rate)
    return reproduce.reproduction(
        minimal, prepared, evidence, timeout, reproduce.launches_for(rate), state.source
    )
