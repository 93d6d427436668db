"""`run`: every wave of a scenario, its files written as it goes, its reports at the end.

In order: the target prepares (`_prepare`: the user's own errors named as theirs); what the
waves need is set up around the target (`_set_up`: another interpreter, the warm-up, the fork
server, scratch directories); the facts the report keeps are gathered once, redacted at the
door (`_facts`); then `Waves` runs one wave after another (the setting and the time budget of
each, its files, when to stop), and the reports are written.
"""

from __future__ import annotations

import contextlib
import dataclasses
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gvlstress.api import like
from gvlstress.api.output import check_report_dir
from gvlstress.api.waves import Drive, Extras, Until, Waves, uses_delays
from gvlstress.campaign import explore
from gvlstress.errors import EnvironmentProblem, GvlstressError, StopNow, UsageError
from gvlstress.model import RunResult, Shard, WaveResult
from gvlstress.model.live import WorkerStatus
from gvlstress.probes import host, interpreter
from gvlstress.scenario import Scenario
from gvlstress.supervisor import Observer, StopFlag, delays, forkserver, worker_spec
from gvlstress.supervisor.warmup import warm_parent, warm_up
from gvlstress.system import watchdog
from gvlstress.system.failure import user_error
from gvlstress.targets.base import Target, TargetPlan, loader_of
from gvlstress.targets.registry import BUILTINS, get_target


class NullObserver:
    """Observer that ignores every event (API use without a display)."""

    def run_started(self, run_dir: str) -> None:
        pass

    def wave_started(self, index: int, scenario: Scenario) -> None:
        pass

    def progress(self, index: int, rows: tuple[WorkerStatus, ...]) -> None:
        pass

    def suspected(self, index: int, slot: int, finding: object) -> None:
        pass

    def capturing(self, index: int, pids: tuple[int, ...]) -> None:
        pass

    def warn(self, message: str) -> None:
        pass

    def wave_finished(self, wave: WaveResult) -> None:
        pass

    def kept_alive(self, wave: WaveResult, seconds: float, report: str) -> None:
        pass


def run(
    scenario: Scenario,
    observer: Observer | None = None,
    stop: StopFlag | None = None,
    command: tuple[str, ...] | None = None,
    deadline: float | None = None,
    until: Until | None = None,
    keep_alive: float | None = None,
    settings: tuple[explore.Arm, ...] = (),
    shard: Shard | None = None,
) -> RunResult:
    """Run every wave of `scenario`; write its files as it goes and its reports at the end.

    With a `deadline` (time.monotonic()), each wave's launch timeout is capped at its share of
    the time left, and waves that no longer fit are not started (a warning says so). `until`
    is asked after every wave whether to stop early (``hunt``); its reason becomes a warning.
    With `keep_alive` seconds, the first hung worker is held that long after the reports, then killed.
    With `settings`, each wave runs on the setting Thompson sampling picks (``hunt --explore``);
    with `shard` I/N, only the campaign's global waves I, I+N, ... (`scenario.waves` in all).
    """
    observer = observer if observer is not None else NullObserver()
    stop = stop if stop is not None else StopFlag()  # an unset StopFlag is falsy: no `or` here
    target = get_target(scenario.target)
    scenario, recreation = like.recreate(scenario, loader_of(target)) if scenario.like else (scenario, None)
    report_dir = check_report_dir(Path(scenario.report_dir))
    if not Path("/proc/self/task").is_dir():
        raise EnvironmentProblem("/proc is not available", hint="gvlstress needs Linux procfs")
    drive = Drive(command, deadline, until, keep_alive, settings, shard)
    if uses_delays(scenario, settings):
        delays.require()  # before any target is prepared: a missing layer is a usage error now
    with watchdog.guarding():  # nothing started from here on outlives a SIGKILLed harness
        # the host snapshot (tool versions, each with a 3 s deadline) is taken beside the set-up
        starting = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gvlstress-snapshot")
        snapshot = starting.submit(host.snapshot)
        starting.shutdown(wait=False)
        plan = _prepare(target, scenario, report_dir)
        with contextlib.ExitStack() as cleanup:
            plan, stderr_dir, extras = _set_up(scenario, plan, cleanup)
            waves = Waves(
                scenario, plan, report_dir, observer, stop, drive, stderr_dir, cleanup, loader_of(target)
            )
            waves.facts(snapshot, extras)
            waves.recreation = recreation
            return waves.run()


def _prepare(target: Target, scenario: Scenario, report_dir: Path) -> TargetPlan:
    """The target's own preparation; what a third-party target raises (or exits with) is its
    author's error, named as such."""
    try:
        plan = target.prepare(scenario, report_dir)
    except (GvlstressError, StopNow):
        raise
    except OSError as exc:
        if scenario.target in BUILTINS:
            raise  # ours: the host's disk or permissions (exit 4)
        raise user_error(f"target {scenario.target!r}: prepare()", exc) from None
    except BaseException as exc:  # a third-party target's own bug: name it, it is not ours
        raise user_error(f"target {scenario.target!r}: prepare()", exc) from None
    if not isinstance(plan, TargetPlan):
        raise UsageError(
            f"target {scenario.target!r}: prepare() returned {type(plan).__name__}, not a TargetPlan",
            hint="return gvlstress.targets.base.TargetPlan(entry=..., options=...)",
        )
    return plan


def _set_up(
    scenario: Scenario, plan: TargetPlan, cleanup: contextlib.ExitStack
) -> tuple[TargetPlan, str, Extras]:
    """Everything the waves need around the target: another interpreter (the harness, not the
    target, owns --python), the warm-up, the fork server's preload, --warm-parent, and scratch
    directories removed however the run ends (also by the watchdog if the harness dies)."""
    for path in plan.scratch:  # removed however the run ends, a bad --python included
        cleanup.callback(shutil.rmtree, path, ignore_errors=True)
    if scenario.python and plan.python is None:
        info = interpreter.probe(scenario.python)
        plan = dataclasses.replace(plan, python=scenario.python, sys_path=interpreter.sys_path(info))
    warmed = warm_up(scenario, plan) if plan.warm_up and scenario.warm_up else None
    if plan.warm_up and warmed is None:
        warmed = {"done": False, "why": "turned off (--no-warm-up)"}
    preloaded = None
    if scenario.preload:
        modules = (*plan.preload, plan.entry.partition(":")[0])
        env = worker_spec(scenario, plan, "preload", 0).env
        preloaded = forkserver.preload(modules, env, max(scenario.startup_grace, 5.0))
    stderr_dir = cleanup.enter_context(tempfile.TemporaryDirectory(prefix="gvlstress-stderr-"))
    for path in (stderr_dir, *plan.scratch):
        watchdog.remove_on_death(path)
    parent = warm_parent(scenario, plan) if scenario.warm_parent else None
    return plan, stderr_dir, Extras(warmed, preloaded, parent)
