"""One wave after another, for `run`: each wave's setting and time budget, its files written as
it ends, when to stop, and the reports at the end. A disk that fills on the way loses files, not
what the waves found: a wave's files that cannot be written are said in the report, and a hang
found before the disk filled is still reported (exit 1), with what could not be written.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path

from gvlstress.api import like
from gvlstress.api.output import new_run_dir, utc_now, write_human, write_reports
from gvlstress.campaign import explore
from gvlstress.errors import UsageError
from gvlstress.judge import symptoms
from gvlstress.judge.audit import audit
from gvlstress.model import HostFacts, LoaderFacts, RunResult, Shard, TargetFacts, WaveResult
from gvlstress.model.profile import Recreation
from gvlstress.probes.corewriter import Keep
from gvlstress.reporters import json_report, raw
from gvlstress.scenario import Scenario
from gvlstress.supervisor import Observer, StopFlag, Wave, delays
from gvlstress.supervisor.delays import DelayLayer
from gvlstress.system import watchdog
from gvlstress.system.cache import cache_root
from gvlstress.system.heartbeat import Board
from gvlstress.system.redact import redact_argv, redact_path, redact_text, redact_tree
from gvlstress.system.text import clip, one_line
from gvlstress.targets.base import TargetPlan
from gvlstress.targets.callable import TargetShapeError

Until = Callable[[list[WaveResult]], str | None]
"""Asked after every wave: a reason to stop now, or None to go on."""

HOLD_POLL_S = 0.2
MIN_WAVE_S = 5.0
"""A wave shorter than this cannot spawn, import and iterate meaningfully."""


@dataclass(frozen=True)
class Drive:
    """How a run is driven beyond its scenario (what `hunt`, `--explore` and shards add)."""

    command: tuple[str, ...] | None = None
    deadline: float | None = None
    """time.monotonic() after which no wave starts; each wave's timeout is capped to fit."""
    until: Until | None = None
    keep_alive: float | None = None
    settings: tuple[explore.Arm, ...] = ()
    shard: Shard | None = None


@dataclass(frozen=True)
class Extras:
    """What was done around the target before the waves (it goes into the target's facts)."""

    warm_up: dict[str, object] | None
    preloaded: dict[str, object] | None
    parent_warmed: str | None


def uses_delays(scenario: Scenario, settings: tuple[explore.Arm, ...]) -> bool:
    return any(s.delays is not None for s in (scenario, *(a.apply(scenario) for a in settings)))


def harness_health() -> dict[str, int]:
    """The harness's own descriptors, threads, memory maps and peak RSS now: flat across the
    waves of a healthy run (nothing a wave opens outlives it)."""

    def count(path: str) -> int:
        try:
            return len(os.listdir(path))
        except OSError:
            return -1

    try:
        with open("/proc/self/maps", "rb") as fh:
            maps = sum(1 for _ in fh)
    except OSError:
        maps = -1
    return {
        "fds": count("/proc/self/fd"),
        "threads": count("/proc/self/task"),
        "maps": maps,
        "max_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


def version_warnings(wave: WaveResult, expect: dict[str, str]) -> list[str]:
    """Workers that imported another version than the scenario pins."""
    out = []
    for key, want in expect.items():
        got = sorted({str(w.target_info[key]) for w in wave.workers if key in w.target_info})
        out += [f"scenario expects {key} {want}, but workers imported {g}" for g in got if g != want]
    return out


def shape_error(wave: WaveResult) -> str | None:
    """A ten-line target that returned no iterable is a usage error, not a loader failure."""
    shape = f"{TargetShapeError.__module__}.{TargetShapeError.__qualname__}"
    for w in wave.workers:
        if w.raised == shape and w.message:
            return w.message
    return None


def found_so_far(waves: list[WaveResult]) -> str | None:
    """What finished waves found, in a phrase (None when every one passed)."""
    bad = [(wave, w) for wave in waves for w in wave.workers if w.verdict.is_hang or w.verdict.is_failure]
    if not bad:
        return None
    wave, w = bad[0]
    n = sum(1 for x in waves if x.verdict.is_hang or x.verdict.is_failure)
    line = clip(one_line(w.verdict_line), 200)
    return f"{w.verdict.value} in {n} of {len(waves)} wave(s) (wave {wave.index + 1}, slot {w.slot}: {line})"


class Waves:
    """One wave after another, each one's files written as it ends, the result kept whole."""

    def __init__(
        self,
        scenario: Scenario,
        plan: TargetPlan,
        report_dir: Path,
        observer: Observer,
        stop: StopFlag,
        drive: Drive,
        stderr_dir: str,
        cleanup: contextlib.ExitStack,
        loader: LoaderFacts | None = None,
    ) -> None:
        self.scenario, self.plan, self.observer, self.stop, self.drive = scenario, plan, observer, stop, drive
        self.loader = loader if loader is not None else LoaderFacts()
        """What the target's loader knows about itself: its known hang's symptoms judged per wave."""
        self.stderr_dir, self.cleanup = stderr_dir, cleanup
        self.started = utc_now()
        self.run_dir = new_run_dir(report_dir, scenario.name, self.started)
        self.slots = max([scenario.workers, *(a.apply(scenario).workers for a in drive.settings)])
        self.board = Board.create(self.slots)
        self.waves: list[WaveResult] = []
        self.warnings: list[str] = [redact_text(w) for w in plan.warnings]
        self.kept: Wave | None = None
        self.stopped: str | None = None
        self.picker = random.Random(scenario.seed)
        # every door a secret could come in by is redacted here, once (see gvlstress.system.redact)
        self.recorded = scenario.recorded()
        self.argv = redact_argv(drive.command if drive.command is not None else sys.argv)
        self.shown_dir = redact_path(str(self.run_dir))
        self.environment = HostFacts()
        self.target = TargetFacts(scenario.target, loader=self.loader)
        self.delays: DelayLayer | None = None
        """The delay layer's tables and learned sites, across waves (with --delays)."""
        self.recreation: Recreation | None = None  # --like: the host recreated; each wave checked
        if uses_delays(scenario, drive.settings):
            table_dir = tempfile.mkdtemp(prefix="gvlstress-delays-")
            watchdog.remove_on_death(table_dir)
            memory = delays.memory_file(cache_root(), scenario.target, scenario.fault, plan.versions)
            self.delays = DelayLayer(Path(table_dir), memory)
            cleanup.callback(self.delays.close)

    def facts(self, snapshot: Future[HostFacts], extras: Extras) -> None:
        """The host and the target as the report keeps them (redacted once, here)."""
        plan = self.plan
        self.environment = snapshot.result(timeout=60)
        self.target = TargetFacts(
            name=redact_text(self.scenario.target),
            entry=plan.entry,
            options=redact_tree(plan.options),
            versions=redact_tree(plan.versions),
            python=redact_path(plan.python or sys.executable),
            warm_up=redact_tree(extras.warm_up) if extras.warm_up is not None else None,
            preloaded=redact_tree(extras.preloaded) if extras.preloaded is not None else None,
            parent_warmed=redact_text(extras.parent_warmed) if extras.parent_warmed else None,
            facts=redact_tree(plan.facts),
            loader=self.loader,
        )

    def result(self, final: bool = False) -> RunResult:
        r = RunResult(
            scenario=self.recorded,
            environment=self.environment,
            target=self.target,
            waves=tuple(self.waves),
            started_at=self.started.isoformat(timespec="seconds"),
            finished_at=utc_now().isoformat(timespec="seconds"),
            command=self.argv,
            run_dir=self.shown_dir,
            interrupted_by=self.stop.signum,
            warnings=tuple(self.warnings),
            exploration=explore.rank(self.waves, self.drive.settings) if self.drive.settings else (),
            shard=self.drive.shard,
            stopped=self.stopped,
            like=self.recreation,
            path=str(self.run_dir),
        )
        return replace(r, audit=audit(r)) if final else r

    def run(self) -> RunResult:
        """Every wave, then the reports. A disk that fills (or goes away) on the way loses the
        files, not what the waves found: that goes with the error (a note the CLI prints)."""
        try:
            return self._run()
        except OSError as exc:
            if found := found_so_far(self.waves):
                exc.add_note(f"before that, the run found {found}")
            raise

    def _run(self) -> RunResult:
        sc, shard = self.scenario, self.drive.shard
        indices = range(shard.index, sc.waves, shard.count) if shard else range(sc.waves)
        json_report.write(self.result(), self.run_dir, complete=False)  # a harness that dies leaves this
        self.observer.run_started(str(self.run_dir))  # the console shows it through its own door
        began = time.monotonic()
        batch_seen = 0.0
        for done, index in enumerate(indices):
            if self.stop:
                break
            picked = self._wave_scenario(done, len(indices))
            if picked is None:
                break
            wave_scenario, setting = picked
            launch = Wave(
                index,
                wave_scenario,
                self.plan,
                self.board,
                self.observer,
                self.stop,
                batch_seen,
                self.stderr_dir,
                keep_hung=self.drive.keep_alive is not None and self.kept is None,
                setting=setting,
                shard=shard.index if shard else None,
                delays=self.delays if wave_scenario.delays is not None else None,
                cores=Keep(self.run_dir, wave_scenario.core_limit, index)
                if wave_scenario.keep_core
                else None,
            )
            try:
                wave = launch.run()
            except BaseException:
                launch.release()  # a kept worker never outlives the run, however it ends
                raise
            if wave.kept_alive is not None:
                self.kept = launch
                self.cleanup.callback(launch.release)
                self.board = Board.create(self.slots)  # the kept worker keeps its old slot to itself
            wave = replace(
                wave, harness={**harness_health(), "at_ms": round(1000 * (time.monotonic() - began))}
            )
            if (hang := self.loader.known_hang) is not None:  # beside what its reporter saw
                wave = replace(wave, symptoms=symptoms.beside(wave, hang.symptoms))
            if self.recreation is not None:  # --like: what of the host this wave had, read back
                wave = like.check_wave(wave, self.recreation, wave_scenario, self.observer.warn)
            if not wave_scenario.perturbs:  # a perturbed batch is not the loader's
                batch_seen = max(batch_seen, wave.batch_s_max)
            if self._record(wave):
                break
        final = self._write_final(self.result(final=True))
        if self.kept is not None and self.drive.keep_alive is not None and not self.stop:
            self._hold(final, self.drive.keep_alive)
        return final

    def _wave_scenario(self, done: int, total: int) -> tuple[Scenario, str | None] | None:
        """The next wave's scenario: the setting exploration picks, its timeout capped to its
        share of a time budget; None when the budget has no room for another wave."""
        sc, drive = self.scenario, self.drive
        wave_scenario, setting = sc, None
        if drive.settings:
            labels = [a.label for a in drive.settings]
            arm = drive.settings[explore.pick(self.picker, explore.tally(self.waves, labels))]
            wave_scenario, setting = arm.apply(sc), arm.label
        if drive.deadline is None:
            return wave_scenario, setting
        share = (drive.deadline - time.monotonic()) / (total - done)
        if share < MIN_WAVE_S:
            self.warnings.append(f"time budget: started {done} of {total} wave(s); the rest did not fit")
            self.stopped = "the time budget had no room for another wave"
            return None
        if share < sc.timeout:
            stall = min(sc.stall, share / 2) if sc.stall else None
            wave_scenario = dataclasses.replace(wave_scenario, timeout=share, stall=stall)
            if not any(w.startswith("time budget: launch timeout") for w in self.warnings):
                self.warnings.append(
                    f"time budget: launch timeout capped at {share:.0f}s (scenario: {sc.timeout:g}s)"
                )
        return wave_scenario, setting

    def _record(self, wave: WaveResult) -> bool:
        """Keep a finished wave and write its files (once); True when the run stops here."""
        self.waves.append(wave)
        for line in version_warnings(wave, self.plan.expect):
            line = redact_text(line)
            if line not in self.warnings:
                self.warnings.append(line)
                self.observer.warn(line)
        try:
            raw.write(wave, self.run_dir)  # each wave's files are written once, here
            json_report.append_wave(wave, self.run_dir)
        except OSError as exc:  # a full disk: the wave's verdict stays, its files are said lost
            self._lost(f"wave {wave.index + 1}'s stacks and captures", exc)
        if self.drive.until is not None and (why := self.drive.until(self.waves)):
            self.warnings.append(f"stopped early: {why}")
            self.stopped = why
            return True
        if misuse := shape_error(wave):
            write_reports(self.result(final=True), self.run_dir)
            raise UsageError(misuse, hint=f"see {self.shown_dir}/report.md")
        return False

    def _lost(self, what: str, exc: OSError) -> None:
        line = f"not written: {what} ({exc.strerror or exc}; is the disk full?)"
        if line not in self.warnings:
            self.warnings.append(line)
            self.observer.warn(line)

    def _write_final(self, final: RunResult) -> RunResult:
        """run.json, report.md and junit.xml. Where the disk refuses them, report.md alone (it is
        small) says what was found and what could not be written; where it refuses that too,
        the error carries what was found (the CLI prints it)."""
        try:
            write_reports(final, self.run_dir)
            return final
        except OSError as exc:
            self._lost("run.json (and what it refers to)", exc)
        final = replace(final, warnings=tuple(self.warnings))
        write_human(final, self.run_dir)
        return final

    def _hold(self, final: RunResult, seconds: float) -> None:
        """Leave the kept worker running for a debugger until the time is up, a stop signal, or
        it exits."""
        assert self.kept is not None
        wave = next(w for w in final.waves if w.kept_alive is not None)
        self.observer.kept_alive(wave, seconds, f"{self.shown_dir}/report.md")
        end = time.monotonic() + seconds
        while not self.stop and time.monotonic() < end and self.kept.kept_running():
            time.sleep(HOLD_POLL_S)  # a poll of the stop flag and /proc, with a deadline
        self.kept.release()
