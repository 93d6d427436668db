"""The programmatic API used by the CLI and (later) the pytest plugin: `run(scenario)`.

It raises `GvlstressError` for expected failures and never prints: observers and reporters
decide what a human sees.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import json
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import psutil

from gvlstress.campaign import explore, stats
from gvlstress.campaign import shards as campaign
from gvlstress.campaign import slurm as slurm_mod
from gvlstress.campaign import sweep as sweep_mod
from gvlstress.campaign.compare import Comparison
from gvlstress.campaign.compare import compare as compare_runs
from gvlstress.controls import selftest as selftest_mod
from gvlstress.errors import EnvironmentProblem, GvlstressError, StopNow, UsageError, user_error
from gvlstress.judge.activity import activity
from gvlstress.judge.explain import explain
from gvlstress.judge.tree import link_tree
from gvlstress.judge.verdict import INSPECT_VERDICT, decide, judge
from gvlstress.model import (
    HuntResult,
    Inspected,
    InspectResult,
    Plan,
    ProbeKind,
    ProcSample,
    RunResult,
    Shard,
    Verdict,
    WaveResult,
    plural,
)
from gvlstress.probes import host as hostenv
from gvlstress.probes import interpreter, procfs
from gvlstress.probes.capture import capture_many
from gvlstress.reporters import json_report, junit, markdown, plot, raw
from gvlstress.reporters.files import write_atomic
from gvlstress.scenario import Scenario
from gvlstress.supervisor import Observer, StopFlag, Wave, WorkerStatus, forkserver, worker_spec
from gvlstress.supervisor.warmup import warm_parent, warm_up
from gvlstress.system import cgroups, watchdog
from gvlstress.system.heartbeat import Board
from gvlstress.system.redact import redact_argv, redact_path, redact_text, redact_tree
from gvlstress.targets.base import Target, TargetPlan
from gvlstress.targets.registry import BUILTINS, get_target


class NullObserver:
    """Observer that ignores every event (API use without a display)."""

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


Until = Callable[[list[WaveResult]], str | None]
"""Asked after every wave: a reason to stop now, or None to go on."""

HOLD_POLL_S = 0.2

MIN_WAVE_S = 5.0
"""A wave shorter than this cannot spawn, import and iterate meaningfully."""


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def check_report_dir(report_dir: Path) -> Path:
    """Create `report_dir` if needed and prove it is writable, before any work starts."""
    try:
        report_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=report_dir, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise EnvironmentProblem(
            f"report directory {str(report_dir)!r} is not writable ({exc.strerror or exc})",
            hint="pass --report-dir with a writable directory",
        ) from None
    return report_dir


def new_run_dir(report_dir: Path, scenario_name: str, now: dt.datetime) -> Path:
    """reports/<UTC time>-<scenario>/, never an existing directory."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", scenario_name).strip("-")[:80] or "run"  # NAME_MAX is 255
    stem = f"{now:%Y%m%dT%H%M%SZ}-{safe}"
    for n in range(1, 1000):
        path = report_dir / (stem if n == 1 else f"{stem}-{n}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path
    raise EnvironmentProblem(f"cannot create a run directory under {report_dir}")


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


def _batch_s(wave: WaveResult) -> float:
    return max((w.batch_s_max or 0.0 for w in wave.workers), default=0.0)


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
    """Run every wave of `scenario`; write run.json after each wave and at the end.

    With a `deadline` (time.monotonic()), each wave's launch timeout is capped at its share of
    the time left, and waves that no longer fit are not started (a warning says so). `until`
    is asked after every wave whether to stop early (``hunt``); its reason becomes a warning.
    With `keep_alive` seconds, the first hung worker outlives its wave and, once the reports
    are written, is held for that long (or until a stop signal, or until it exits), then killed.
    With `settings`, each wave runs on the setting Thompson sampling picks (``hunt --explore``).
    With `shard` I/N, only the campaign's global waves I, I+N, ... run (`scenario.waves` is the
    campaign's total), each under its global index and the seed derived from it.
    """
    observer = observer if observer is not None else NullObserver()
    stop = stop if stop is not None else StopFlag()  # an unset StopFlag is falsy: no `or` here
    target = get_target(scenario.target)
    report_dir = check_report_dir(Path(scenario.report_dir))
    if not Path("/proc/self/task").is_dir():
        raise EnvironmentProblem("/proc is not available", hint="gvlstress needs Linux procfs")
    with watchdog.guarding():  # nothing started from here on outlives a SIGKILLed harness
        return _run(
            scenario,
            target,
            report_dir,
            observer,
            stop,
            command,
            deadline,
            until,
            keep_alive,
            settings,
            shard,
        )


def _run(
    scenario: Scenario,
    target: Target,
    report_dir: Path,
    observer: Observer,
    stop: StopFlag,
    command: tuple[str, ...] | None,
    deadline: float | None,
    until: Until | None = None,
    keep_alive: float | None = None,
    settings: tuple[explore.Arm, ...] = (),
    shard: Shard | None = None,
) -> RunResult:
    # The host snapshot (tool versions, each with a 3 s deadline) is taken beside the start-up work.
    starting = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gvlstress-snapshot")
    snapshot = starting.submit(hostenv.snapshot)
    starting.shutdown(wait=False)
    builtin = scenario.target in BUILTINS
    try:
        plan = target.prepare(scenario, report_dir)
    except (GvlstressError, StopNow):
        raise
    except OSError:
        if builtin:
            raise  # ours: the host's disk or permissions (exit 4)
        raise user_error(f"target {scenario.target!r}: prepare()", sys.exc_info()[1] or OSError()) from None
    except BaseException as exc:  # a third-party target's own bug: name it, it is not ours
        raise user_error(f"target {scenario.target!r}: prepare()", exc) from None
    if not isinstance(plan, TargetPlan):
        raise UsageError(
            f"target {scenario.target!r}: prepare() returned {type(plan).__name__}, not a TargetPlan",
            hint="return gvlstress.targets.base.TargetPlan(entry=..., options=...)",
        )
    with contextlib.ExitStack() as cleanup:
        for path in plan.scratch:  # removed however the run ends, a bad --python included
            cleanup.callback(shutil.rmtree, path, ignore_errors=True)
        if scenario.python and plan.python is None:  # the harness, not the target, owns --python
            info = interpreter.probe(scenario.python)
            plan = dataclasses.replace(plan, python=scenario.python, sys_path=interpreter.sys_path(info))
        warmed = warm_up(scenario, plan) if plan.warm_up and scenario.warm_up else None
        preloaded = None
        if scenario.preload:
            modules = (*plan.preload, plan.entry.partition(":")[0])
            preloaded = forkserver.preload(
                modules, worker_spec(scenario, plan, "preload", 0).env, max(scenario.startup_grace, 5.0)
            )
        stderr_dir = cleanup.enter_context(tempfile.TemporaryDirectory(prefix="gvlstress-stderr-"))
        for path in (stderr_dir, *plan.scratch):
            watchdog.remove_on_death(path)
        started = _utc_now()
        run_dir = new_run_dir(report_dir, scenario.name, started)
        slots = max([scenario.workers, *(a.apply(scenario).workers for a in settings)])
        board = Board.create(slots)
        environment = redact_tree(snapshot.result(timeout=60))
        # every door a secret could come in by is redacted here, once (see gvlstress.system.redact)
        target_facts = redact_tree(
            {
                "name": scenario.target,
                "entry": plan.entry,
                "options": plan.options,
                "versions": plan.versions,
                "python": plan.python or sys.executable,
                **plan.facts,
            }
        )
        recorded = scenario.recorded()
        if plan.warm_up:
            target_facts["warm_up"] = warmed or {"done": False, "why": "turned off (--no-warm-up)"}
        if preloaded is not None:
            target_facts["preloaded"] = preloaded
        if scenario.warm_parent:
            target_facts["parent_warmed"] = warm_parent(scenario, plan)
        waves: list[WaveResult] = []
        warnings: list[str] = [redact_text(w) for w in plan.warnings]
        batch_seen = 0.0
        kept: Wave | None = None
        picker = random.Random(scenario.seed)
        labels = [a.label for a in settings]

        argv = redact_argv(command if command is not None else sys.argv)
        shown_dir = redact_path(str(run_dir))

        def result() -> RunResult:
            return RunResult(
                scenario=recorded,
                environment=environment,
                target=target_facts,
                waves=tuple(waves),
                started_at=started.isoformat(timespec="seconds"),
                finished_at=_utc_now().isoformat(timespec="seconds"),
                command=argv,
                run_dir=shown_dir,
                interrupted_by=stop.signum,
                warnings=tuple(warnings),
                exploration=explore.rank(waves, settings) if settings else (),
                shard=shard,
            )

        indices = range(shard.index, scenario.waves, shard.count) if shard else range(scenario.waves)
        json_report.write(result(), run_dir, complete=False)  # a harness that dies leaves this
        began = time.monotonic()
        for done, index in enumerate(indices):
            if stop:
                break
            wave_scenario, setting = scenario, None
            if settings:
                arm = settings[explore.pick(picker, explore.tally(waves, labels))]
                wave_scenario, setting = arm.apply(scenario), arm.label
            if deadline is not None:
                share = (deadline - time.monotonic()) / (len(indices) - done)
                if share < MIN_WAVE_S:
                    warnings.append(
                        f"time budget: started {done} of {len(indices)} wave(s); the rest did not fit"
                    )
                    break
                if share < scenario.timeout:
                    wave_scenario = dataclasses.replace(
                        wave_scenario,
                        timeout=share,
                        stall=min(scenario.stall, share / 2) if scenario.stall else None,
                    )
                    note = f"time budget: launch timeout capped at {share:.0f}s (scenario: {scenario.timeout:g}s)"
                    if not any(w.startswith("time budget: launch timeout") for w in warnings):
                        warnings.append(note)
            launch = Wave(
                index,
                wave_scenario,
                plan,
                board,
                observer,
                stop,
                batch_seen,
                stderr_dir,
                keep_hung=keep_alive is not None and kept is None,
                setting=setting,
                shard=shard.index if shard else None,
            )
            try:
                wave = launch.run()
            except BaseException:
                launch.release()  # a kept worker never outlives the run, however it ends
                raise
            if wave.kept_alive is not None:
                kept = launch
                cleanup.callback(launch.release)
                board = Board.create(slots)  # the kept worker keeps its old slot to itself
            wave = replace(
                wave, harness={**harness_health(), "at_ms": round(1000 * (time.monotonic() - began))}
            )
            waves.append(wave)
            batch_seen = max(batch_seen, _batch_s(wave))
            for line in version_warnings(wave, plan.expect):
                line = redact_text(line)
                if line not in warnings:
                    warnings.append(line)
                    observer.warn(line)
            raw.write(wave, run_dir)  # each wave's files are written once, here
            json_report.append_wave(wave, run_dir)
            if until is not None and (why := until(waves)):
                warnings.append(f"stopped early: {why}")
                break
            if misuse := _shape_error(wave):
                write_reports(result(), run_dir)
                raise UsageError(misuse, hint=f"see {run_dir}/report.md")
        final = result()
        write_reports(final, run_dir)
        if kept is not None and keep_alive is not None and not stop:
            _hold(kept, final, keep_alive, observer, stop, run_dir)
        return final


def _hold(
    kept: Wave, final: RunResult, seconds: float, observer: Observer, stop: StopFlag, run_dir: Path
) -> None:
    """Leave the kept worker running for a debugger until the time is up, a stop signal, or it exits."""
    wave = next(w for w in final.waves if w.kept_alive is not None)
    pid = wave.kept_alive
    assert pid is not None
    observer.kept_alive(wave, seconds, redact_path(str(run_dir / "report.md")))
    end = time.monotonic() + seconds
    while not stop and time.monotonic() < end and kept.kept_running():
        time.sleep(HOLD_POLL_S)  # a poll of the stop flag and /proc, with a deadline
    kept.release()


def _quota_ok() -> bool:
    """Can this process create a CPU-quota cgroup (so `hunt --explore` may try one)?"""
    return cgroups.writable()


def _shape_error(wave: WaveResult) -> str | None:
    """A ten-line target that returned no iterable is a usage error, not a loader failure."""
    for w in wave.workers:
        if w.verdict is Verdict.ERROR and w.detail and (marker := "TargetShapeError: ") in w.detail:
            return w.detail.split(marker, 1)[1].splitlines()[0]
    return None


def version_warnings(wave: WaveResult, expect: dict[str, str]) -> list[str]:
    """Workers that imported another version than the scenario pins."""
    out = []
    for key, want in expect.items():
        got = sorted({str(w.target_info[key]) for w in wave.workers if key in w.target_info})
        out += [f"scenario expects {key} {want}, but workers imported {g}" for g in got if g != want]
    return out


def _write_human(result: RunResult, run_dir: Path) -> dict[str, Path]:
    """report.md and junit.xml (which points at report.md), each written atomically."""
    report_md = run_dir / "report.md"
    junit_xml = run_dir / "junit.xml"
    written = {}
    files = markdown.render_files(result)
    for name, text in files.items():
        write_atomic(run_dir / name, text)
        written[name] = run_dir / name
    if "stacks.md" not in files:  # a re-render that fits again: no stale overflow beside it
        (run_dir / "stacks.md").unlink(missing_ok=True)
    write_atomic(junit_xml, junit.render(result, redact_path(str(report_md))))
    return {**written, "junit.xml": junit_xml}


def write_reports(result: RunResult, run_dir: Path) -> dict[str, Path]:
    """run.json, report.md and junit.xml."""
    return {"run.json": json_report.write(result, run_dir), **_write_human(result, run_dir)}


def rerender(run_dir: Path, force: bool = False) -> dict[str, Path]:
    """report.md and junit.xml again from run.json (e.g. after a format change)."""
    result = json_report.read(run_dir)
    existing = [p.name for p in (run_dir / "report.md", run_dir / "junit.xml") if p.exists()]
    if existing and not force:
        raise UsageError(f"{run_dir} already has {', '.join(existing)}", hint="add --force to overwrite")
    return _write_human(result, run_dir)


def inspect(
    pid: int,
    tree: bool = False,
    report_dir: Path = Path("reports"),
    command: tuple[str, ...] | None = None,
    watch: float | None = None,
) -> InspectResult:
    """Capture and explain a live process (and its descendants with `tree`); never kill it.

    One look has no progress signal: /proc is sampled twice (before any ptrace tool touches the
    process), the stacks are captured, and the verdict is idle, busy, stopped, stalled, or
    deadlock only when a named pattern or a cycle across processes explains a closed wait set.
    With `watch` seconds, /proc is sampled over that time instead, and each process gets its
    activity (CPU, syscalls, wake-ups per thread): the progress signal one look lacks.
    """
    try:
        root = psutil.Process(pid)
        if root.status() == psutil.STATUS_ZOMBIE:
            raise UsageError(f"process {pid} is a zombie (it has exited; its parent has not reaped it)")
        if procfs.is_kernel_thread(pid):
            raise UsageError(
                f"process {pid} ({root.name()}) is a kernel thread: it has no user stack to read",
                hint="inspect a user process (ps -ef shows kernel threads in [brackets])",
            )
        procs = [root, *(root.children(recursive=True) if tree else [])]
    except psutil.NoSuchProcess:
        raise UsageError(f"no process with pid {pid}", hint="check the pid (ps -ef)") from None
    check_report_dir(report_dir)
    if not os.access(f"/proc/{pid}/task", os.R_OK):
        raise EnvironmentProblem(f"cannot read /proc/{pid}/task", hint="run as the process owner or root")
    started = _utc_now()
    run_dir = new_run_dir(report_dir, f"inspect-{pid}", started)
    with watchdog.guarding():
        return _inspect(procs, tree, run_dir, started, command, watch)


def _inspect(
    procs: list[psutil.Process],
    tree: bool,
    run_dir: Path,
    started: dt.datetime,
    command: tuple[str, ...] | None,
    watch: float | None,
) -> InspectResult:
    pids = [p.pid for p in procs]
    watched: dict[int, list[ProcSample]] = {}
    if watch:
        with ThreadPoolExecutor(max_workers=len(pids)) as pool:
            watched = dict(zip(pids, pool.map(lambda p: procfs.watch(p, watch), pids), strict=True))
        pairs = {p: (s[0] if s else None, s[-1] if len(s) > 1 else None) for p, s in watched.items()}
    else:
        pairs = procfs.sample_pairs(pids, procfs.PROBE_WINDOW_S)
    findings = {
        p: f
        for p, (a, b) in pairs.items()
        if (f := judge(a, b, progress_tid=p, progress=False)).kind is not ProbeKind.GONE
    }
    if pids[0] not in findings:
        raise UsageError(
            f"process {pids[0]} exited while it was being inspected: there is nothing left to judge",
            hint="inspect it again while it runs",
        )
    # (`run` probes only workers whose heartbeat went quiet; inspect has no heartbeat at all)
    captures = capture_many(findings)
    decided = {p: decide(f, captures.get(p), progress=False) for p, f in findings.items()}
    parents = {}
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            parents[proc.pid] = proc.ppid()
    linked = link_tree(decided, parents, {p: procfs.pipe_ends(p) for p in decided} if tree else {})
    inspected = []
    for proc in procs:
        if proc.pid not in linked:
            continue
        f, named = linked[proc.pid]
        try:
            cmdline = " ".join(redact_argv(proc.cmdline())) or proc.name()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            cmdline = "?"
        cap = captures.get(proc.pid)
        verdict = INSPECT_VERDICT[f.kind]
        how = f"sampled over {watch:g}s" if watch else "inspected once (no progress signal)"
        diagnosis = explain(verdict, f, cap, how, named=named)
        seen = activity(watched[proc.pid]) if proc.pid in watched else None
        if seen is not None:
            diagnosis = replace(diagnosis, evidence=(seen.summary, *diagnosis.evidence))
        inspected.append(Inspected(proc.pid, cmdline, f, cap, diagnosis, seen))
    result = InspectResult(
        tuple(inspected),
        hostenv.snapshot(),
        started.isoformat(timespec="seconds"),
        redact_argv(command if command is not None else sys.argv),
        str(run_dir),
    )
    for p in result.processes:
        if p.capture:
            raw.write_raw(p.capture, run_dir / "processes" / f"pid{p.pid}")
    json_report.write_inspect(result, run_dir)
    write_atomic(run_dir / "report.md", markdown.render_inspect(result))
    return result


def selftest(
    names: tuple[str, ...] | None = None,
    repeat: int = 1,
    workers: int = 2,
    rayon: int = 8,
    report_dir: Path = Path("reports"),
    progress: selftest_mod.ProgressFn | None = None,
    stop: StopFlag | None = None,
) -> selftest_mod.SelftestResult:
    """Run every control (positive and negative) `repeat` times on this host."""
    from gvlstress.scenario import resolve

    check_report_dir(report_dir)
    started = _utc_now()
    run_dir = new_run_dir(report_dir, "selftest", started)
    stop = stop if stop is not None else StopFlag()
    rows = []
    for control in selftest_mod.controls(names):
        attempts = []
        for i in range(repeat):
            if stop:
                break
            settings = selftest_mod.scenario_settings(control, workers, rayon, run_dir)
            scenario = resolve(None, settings)
            result = run(scenario, stop=stop, command=("gvlstress", "selftest", "--only", control.name))
            attempt = selftest_mod.attempt_of(result)
            attempts.append(attempt)
            if progress is not None:
                progress(control, i, attempt)
        rows.append(selftest_mod.Row(control, tuple(attempts)))
    out = selftest_mod.SelftestResult(tuple(rows), str(run_dir))
    write_atomic(run_dir / "selftest.json", json.dumps(selftest_mod.as_dict(out), indent=2) + "\n")
    write_atomic(run_dir / "selftest.md", markdown.render_selftest(out))
    return out


def compare(
    run_dirs: list[Path],
    output: Path | None = None,
    report_dir: Path = Path("reports"),
    sequential: tuple[float, float, float] | None = None,
) -> tuple[Comparison, Path]:
    """Hang rates of runs side by side; also written as Markdown (to `output` or the report dir).
    With `sequential` (odds ratio, alpha, beta) and two runs: the SPRT on their wave pairs."""
    if len(run_dirs) < 2:
        raise UsageError("compare needs at least two run directories")
    if sequential is not None and len(run_dirs) != 2:
        raise UsageError("compare --sequential takes exactly two run directories")
    # each run is labelled by the directory it was given as (the path printed as given)
    runs = [replace(json_report.read(d), run_dir=str(d)) for d in run_dirs]
    result = compare_runs(runs)
    if sequential is not None:
        ratio, alpha, beta = sequential
        a, b = ([w.verdict.is_hang for w in sorted(r.waves, key=lambda w: w.index)] for r in runs)
        names = (result.runs[0].name, result.runs[1].name)
        try:
            seq = campaign.sequential_pairs(a, b, ratio, alpha, beta, names)
        except ValueError as exc:
            raise UsageError(f"compare --sequential: {exc}") from None
        result = replace(result, sequential=seq)
    if output is None:
        check_report_dir(report_dir)
        output = report_dir / f"{_utc_now():%Y%m%dT%H%M%SZ}-compare.md"
    if output.exists():
        raise UsageError(f"{output} exists", hint="pass another --output")
    try:
        write_atomic(output, markdown.render_compare(result))
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write {output} ({exc.strerror})") from None
    return result, output


def merge(
    run_dirs: list[Path], output: Path, mixed: bool = False, command: tuple[str, ...] | None = None
) -> RunResult:
    """One run from shards (or any runs of one scenario): run.json, report.md and junit.xml in
    `output`, plus the inputs' raw captures. Writing the same merge again gives the same files."""
    if not run_dirs:
        raise UsageError("merge needs at least one run directory", hint="gvlstress merge DIR... --output DIR")
    resolved = [d.resolve() for d in run_dirs]
    if output.resolve() in resolved:
        raise UsageError(f"--output {output} is one of the inputs", hint="pass a new directory")
    runs = [replace(json_report.read(d), run_dir=str(d)) for d in run_dirs]
    argv = (
        command
        if command is not None
        else ("gvlstress", "merge", *map(str, run_dirs), "--output", str(output))
    )
    merged = campaign.merge(runs, str(output), redact_argv(argv), mixed)
    try:
        output.mkdir(parents=True, exist_ok=True)
        for d in dict.fromkeys(resolved):
            if (d / "workers").is_dir():
                shutil.copytree(d / "workers", output / "workers", dirs_exist_ok=True)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write {output} ({exc.strerror or exc})") from None
    write_reports(merged, output)
    return merged


def slurm(
    directory: Path,
    shards: int,
    run_args: tuple[str, ...],
    parallel: int | None = None,
    sbatch: tuple[str, ...] = (),
    submit: bool = False,
    waves: int | None = None,
) -> slurm_mod.SlurmJobs:
    """A Slurm array of shards and its afterany merge job (the CLI checked the run options;
    `waves`, the campaign's total, bounds the shards)."""
    return slurm_mod.write(directory, shards, run_args, parallel, sbatch, submit, waves)


SweepProgress = Callable[[int, int, str], None]
"""Told before each cell: (cells done, cells in all, the cell's label)."""


def sweep(
    base: Scenario,
    workers: tuple[int, ...],
    rayon: tuple[int, ...],
    amplifiers: tuple[str, ...] = ("none",),
    progress: SweepProgress | None = None,
    stop: StopFlag | None = None,
    command: tuple[str, ...] | None = None,
) -> sweep_mod.SweepResult:
    """One run per grid cell (its own run directory under the sweep's), then the hazard table
    and heatmap in the sweep's report.md. A stop signal ends the sweep after the current cell."""
    stop = stop if stop is not None else StopFlag()
    report_dir = check_report_dir(Path(base.report_dir))
    sweep_dir = new_run_dir(report_dir, f"sweep-{base.name}", _utc_now())
    grid = sweep_mod.cells(
        dataclasses.replace(base, report_dir=str(sweep_dir / "cells")), workers, rayon, amplifiers
    )
    measured = []
    for i, (w, r, amp, sc) in enumerate(grid):
        if stop:
            break
        if progress is not None:
            progress(i, len(grid), f"{w} x {r}, {amp}")
        cell_run = run(sc, stop=stop, command=command)
        measured.append(sweep_mod.measure(w, r, amp, cell_run))
    if progress is not None:
        progress(len(measured), len(grid), "done")
    result = sweep_mod.SweepResult(
        cells=tuple(measured),
        workers=workers,
        rayon=rayon,
        amplifiers=amplifiers,
        base=base.recorded(),
        sweep_dir=redact_path(str(sweep_dir)),
        heatmap=None,
        interrupted=bool(stop),
    )
    png = sweep_dir / "heatmap.png"
    if measured and plot.heatmap(result, png):
        result = dataclasses.replace(result, heatmap=str(png))
    write_atomic(sweep_dir / "report.md", markdown.render_sweep(result))
    return result


def plan(rate: float, confidence: float = 0.95, run_dir: Path | None = None, hosts: int = 1) -> Plan:
    """Clean waves needed to claim 'hang rate < `rate`' at `confidence`; with a run, its batches
    per wave and waves per hour give the batches and the time on one host and on `hosts`."""
    n = campaign.clean_launches(rate, confidence)
    if run_dir is None:
        return Plan(rate, confidence, n, hosts)
    run = json_report.read(run_dir)
    if not run.waves:
        raise UsageError(f"{run_dir} has no finished wave to measure", hint="pass a run that ran")
    wall = sum(w.wall_s for w in run.waves)
    batches = sum(w.iterations for wave in run.waves for w in wave.workers)
    hung = sum(1 for w in run.waves if w.verdict.is_hang)
    return Plan(
        rate,
        confidence,
        n,
        hosts,
        run_dir=str(run_dir),
        batches_per_wave=batches / len(run.waves),
        waves_per_hour=3600 * len(run.waves) / wall if wall > 0 else None,
        done_clean=sum(1 for w in run.waves if w.verdict is Verdict.OK),
        hung=hung,
    )


def hunt(
    scenario: Scenario,
    hangs: int | None = 1,
    budget_s: float | None = None,
    observer: Observer | None = None,
    stop: StopFlag | None = None,
    command: tuple[str, ...] | None = None,
    keep_alive: float | None = None,
    explore_settings: bool = False,
    sequential: stats.Sprt | None = None,
) -> HuntResult:
    """Launch waves until `hangs` hung waves (None: never stop for hangs), the time budget, or
    `scenario.waves` waves. With `explore_settings`, spread the waves over settings around the
    scenario (threads, workers, amplifiers) by Thompson sampling, and rank them."""
    started = time.monotonic()

    def enough(waves: list[WaveResult]) -> str | None:
        found = sum(1 for w in waves if w.verdict.is_hang)
        if sequential is not None and (decided := sequential.decide(found, len(waves))):
            return f"the sequential test decided {decided} after {plural(len(waves), 'wave')}"
        if hangs is not None and found >= hangs:
            return f"{plural(found, 'hung wave')} found"
        if budget_s is not None and time.monotonic() - started >= budget_s:
            return f"time budget of {budget_s:g}s used"
        return None

    if explore_settings and scenario.preload:
        raise UsageError(
            "--explore varies thread settings that --preload fixes at import in the fork server",
            hint="drop one of them",
        )
    settings = explore.arms(scenario, len(os.sched_getaffinity(0)), _quota_ok()) if explore_settings else ()
    result = run(
        scenario,
        observer=observer,
        stop=stop,
        command=command,
        until=enough,
        keep_alive=keep_alive,
        settings=settings,
    )
    waves = result.waves
    batches = sum(w.iterations for wave in waves for w in wave.workers)
    cpu_min = sum(w.cpu_s or 0.0 for wave in waves for w in wave.workers) / 60
    found = [i for i, w in enumerate(waves) if w.verdict.is_hang]
    to_hang = None
    seconds = None
    if found:
        first = found[0]
        to_hang = sum(w.iterations for wave in waves[: first + 1] for w in wave.workers)
        seconds = sum(w.wall_s for w in waves[:first]) + (waves[first].detect_s or waves[first].wall_s)
    stopped = next(
        (w.removeprefix("stopped early: ") for w in result.warnings if w.startswith("stopped early")),
        "interrupted" if result.interrupted_by else f"wave cap of {scenario.waves} reached",
    )
    return HuntResult(
        run=result,
        stopped=stopped,
        hangs=len(found),
        waves=len(waves),
        batches=batches,
        cpu_minutes=cpu_min,
        hazard=stats.rate(len(found), max(batches, 1)),
        per_cpu_minute=stats.poisson_rate(len(found), cpu_min),
        batches_to_hang=to_hang,
        seconds_to_hang=seconds,
        sequential=campaign.sequential_rate([w.verdict.is_hang for w in waves], sequential)
        if sequential
        else None,
    )
