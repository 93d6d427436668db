"""Waves: launch N workers, watch their heartbeats, catch hangs, capture, kill, reap.

The loop never blocks without a deadline: it waits on the futures for one poll interval at a
time and reads the heartbeat board in between. A worker whose heartbeat goes quiet past the
stall threshold is probed through /proc; it is called deadlocked early only if every thread is
parked with flat CPU and futex waits, otherwise it is re-probed and judged at the launch
timeout. On a hang, evidence is captured first and the worker process trees are SIGKILLed
after; the executor is shut down without waiting (leaving a ``with ProcessPoolExecutor`` block
on a hung worker waits forever), and every process is joined with a deadline.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from multiprocessing.connection import wait as mp_wait
from typing import Any, Protocol

import psutil

from gvlstress import amplify, worker
from gvlstress.judge import patterns
from gvlstress.judge.explain import explain
from gvlstress.judge.verdict import decide, judge
from gvlstress.model import (
    Capture,
    Diagnosis,
    ProbeFinding,
    ProbeKind,
    ProcSample,
    Verdict,
    WaveResult,
    WorkerOutcome,
    worst,
)
from gvlstress.probes import procfs, tools
from gvlstress.probes.capture import capture_many
from gvlstress.probes.procfs import PROBE_WINDOW_S
from gvlstress.scenario import Scenario
from gvlstress.system import proctree, watchdog
from gvlstress.system.cgroups import WaveGroup
from gvlstress.system.heartbeat import Board, Phase, SlotState
from gvlstress.system.knobs import environ_with, redact_setting, thread_knobs
from gvlstress.system.proctree import exit_status, kill_trees, signal_name
from gvlstress.system.redact import redact_block, redact_lines, redact_mapping
from gvlstress.targets.base import TargetPlan

POLL_S = 0.2
"""How often the loop wakes to read heartbeats (also the latency of Ctrl-C handling)."""
STATS_S = 0.5
"""How often live stats (CPU, threads) are sampled for the display."""
STALL_FACTOR = 10.0
"""Adaptive stall threshold: this many times the slowest batch seen so far (never below the floor)."""
REAP_S = 5.0


@dataclass(frozen=True)
class WorkerStatus:
    """One row of the live display."""

    slot: int
    pid: int | None
    iterations: int
    rate: float
    threads: int
    cpu_percent: float | None
    state: str


class Observer(Protocol):
    """Receives live events; the console reporter implements it. Must not block."""

    def wave_started(self, index: int, scenario: Scenario) -> None: ...

    def progress(self, index: int, rows: tuple[WorkerStatus, ...]) -> None: ...

    def suspected(self, index: int, slot: int, finding: ProbeFinding) -> None: ...

    def capturing(self, index: int, pids: tuple[int, ...]) -> None: ...

    def warn(self, message: str) -> None: ...

    def wave_finished(self, wave: WaveResult) -> None: ...

    def kept_alive(self, wave: WaveResult, seconds: float, report: str) -> None: ...


class StopFlag:
    """Set from a signal handler; the loop checks it every poll."""

    def __init__(self) -> None:
        self.signum: int | None = None
        tools.reset()

    def set(self, signum: int) -> None:
        if self.signum is None:
            self.signum = signum
        tools.cancel()  # a capture in progress kills its tools now, not at their deadlines

    def __bool__(self) -> bool:
        return self.signum is not None


def inherited_env(name: str, value: int | None) -> contextlib.AbstractContextManager[None]:
    """Give processes started inside the block `name=value` in their birth environment."""
    return environ_with({name: str(value)} if value is not None else {})


@contextmanager
def spawn_without_main() -> Iterator[None]:
    """Keep spawned workers from re-importing the parent's ``__main__``.

    Under a console script (``gvlstress``, ``pytest``) spawn would re-run that script's imports
    in every worker (click, rich, pytest...), which slows start-up and puts harness code in the
    process under test. Workers need nothing from ``__main__``.
    """
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved: dict[str, Any] = {k: main.__dict__[k] for k in ("__file__", "__spec__") if k in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


@contextmanager
def worker_interpreter(ctx: Any, python: str | None) -> Iterator[None]:
    """Spawn workers with another interpreter for the block (multiprocessing keeps one global
    executable for spawn, so it is restored afterwards)."""
    if python is None:
        yield
        return
    from multiprocessing import spawn

    previous = spawn.get_executable()
    ctx.set_executable(python)
    try:
        yield
    finally:
        ctx.set_executable(previous)


def wave_seed(seed: int, index: int) -> int:
    """A wave's seed from the run's seed and its global index: shards never repeat each other's
    waves, and one wave is reproducible alone (``--shard INDEX/WAVES --waves WAVES``)."""
    return (seed * 1_000_003 + index * 1009) % 2**63


def worker_spec(scenario: Scenario, plan: TargetPlan, wave: int | str, slot: int) -> worker.WorkerSpec:
    """What worker `slot` of wave `wave` runs: thread knobs first, then the plan's own env
    (where "{wave}" becomes the wave's index, e.g. a cache directory per wave)."""
    names = dict.fromkeys((*plan.rayon_env, *scenario.thread_env))
    env = {name: str(scenario.rayon) for name in names} if scenario.rayon is not None else {}
    env.update({k: v.replace("{wave}", str(wave)) for k, v in plan.env.items()})
    index = wave if isinstance(wave, int) else 0
    seed = (wave_seed(scenario.seed, index) + slot) % 2**63
    return worker.WorkerSpec(
        entry=plan.entry,
        options=dict(plan.options),
        env=env,
        iterations=scenario.iterations,
        duration=scenario.duration,
        seed=seed,
        rendezvous_s=scenario.startup_grace,
        affinity=amplify.squeeze_cpus(scenario.squeeze) if scenario.squeeze else None,
    )


TRACEBACK_CHARS = 64 * 1024
"""The end of a worker's traceback that is kept (a 30 KB exception message is kept whole)."""
STDERR_TAIL_LINES = 50
_TAIL_BYTES = 64 * 1024


def stderr_tail(directory: str | None, pid: int | None) -> tuple[str, ...]:
    """The last lines a worker wrote to stderr, redacted (empty when there is nothing)."""
    if directory is None or pid is None:
        return ()
    try:
        with open(worker.stderr_file(directory, pid), "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - _TAIL_BYTES))
            data = fh.read()
    except OSError:
        return ()
    lines = data.decode("utf-8", "replace").splitlines()[-STDERR_TAIL_LINES:]
    return redact_lines(line.rstrip()[:1000] for line in lines)


def probe_workers(
    pids: list[int], window: float = PROBE_WINDOW_S, first: dict[int, ProcSample] | None = None
) -> dict[int, ProbeFinding]:
    """Two /proc samples of every worker, `window` apart, judged from the thread that calls the
    target (a worker runs its task in its main thread, so that thread's id is the pid). With
    `first` samples of every pid taken at least `window` ago (while the heartbeat was already
    quiet), the window has passed already: one more sample and no wait."""
    now = time.monotonic()
    pairs: dict[int, tuple[ProcSample | None, ProcSample | None]]
    if pids and first and all(p in first and now - first[p].at >= window for p in pids):
        pairs = {pid: (first[pid], procfs.sample(pid)) for pid in pids}
    else:
        pairs = procfs.sample_pairs(pids, window)
    return {pid: judge(a, b, progress_tid=pid, progress=True) for pid, (a, b) in pairs.items()}


_FROM_PRESAMPLE = (ProbeKind.DEADLOCK, ProbeKind.WAITING, ProbeKind.GONE, ProbeKind.STOPPED)


def _needs_stacks(f: ProbeFinding) -> bool:
    """/proc alone says deadlock, or the progress thread waits on a lock that another thread
    might still end: the stacks decide (what it waits in; which threads are idle by design)."""
    return f.kind is ProbeKind.DEADLOCK or (f.kind is ProbeKind.WAITING and bool(f.chain))


@dataclass
class _Slot:
    """Mutable per-slot bookkeeping inside one wave (never leaves this module)."""

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
    """/proc taken one probe window before the slot is due (see Wave._presample)."""
    pinned: tuple[int, int] | None = None
    """--squeeze as checked: (threads within the CPUs, threads seen)."""
    capture: Capture | None = None
    proc: psutil.Process | None = field(default=None, repr=False)


class Wave:
    """One launch. `run()` returns its WaveResult and leaves no process behind."""

    def __init__(
        self,
        index: int,
        scenario: Scenario,
        plan: TargetPlan,
        board: Board,
        observer: Observer,
        stop: StopFlag,
        batch_s_seen: float = 0.0,
        stderr_dir: str | None = None,
        keep_hung: bool = False,
        setting: str | None = None,
        shard: int | None = None,
    ) -> None:
        self.index = index
        self.setting = setting
        self.shard = shard
        self.keep_hung = keep_hung
        """Spare the first hung worker at teardown (``hunt --keep-alive``); `release()` ends it."""
        self.kept: dict[int, Any] = {}
        self._pool_processes: dict[int, Any] = {}
        self._pool_manager: threading.Thread | None = None
        self._pool_wakeup: Any = None
        self.scenario = scenario
        self.plan = plan
        self.board = board
        self.observer = observer
        self.stop = stop
        self.batch_s_seen = batch_s_seen
        self.stderr_dir = stderr_dir
        self.slots = [_Slot(i) for i in range(scenario.workers)]
        self.processes: dict[int, Any] = {}
        self.end_reason = "done"
        """'done', 'stall' (a deadlock was confirmed), 'timeout' or 'stop'."""
        self.ended_at = 0.0
        self._broken = False
        self._crashed_at_break: dict[int, int] = {}
        self._executor: ProcessPoolExecutor | None = None
        self.group: WaveGroup | None = None
        """The wave's cgroups (containment, and the quota when asked); None where none is writable."""
        self.leftovers: set[int] = set()
        """Processes the workers started that outlived them and were killed at the wave's end."""
        self.chaos: amplify.Chaos | None = None
        self.amplified: dict[str, Any] = {}
        self.squeezed = amplify.squeeze_cpus(scenario.squeeze) if scenario.squeeze else None

    # -- thresholds -------------------------------------------------------------------------
    def threshold(self, s: _Slot) -> float:
        """Seconds of heartbeat silence before `s` is probed."""
        sc = self.scenario
        if sc.stall is not None:
            base = sc.stall
        else:
            seen = max([self.batch_s_seen] + [x.state.batch_s_max for x in self.slots if x.state])
            base = max(sc.stall_floor, STALL_FACTOR * seen)
        if s.state is None or s.state.phase < Phase.ITERATING:
            return max(base, sc.startup_grace)
        return base

    def spec(self, slot: int) -> worker.WorkerSpec:
        return worker_spec(self.scenario, self.plan, self.index, slot)

    # -- the loop ---------------------------------------------------------------------------
    def run(self) -> WaveResult:
        sc = self.scenario
        self.board.reset()
        self.observer.wave_started(self.index, sc)
        ctx = mp.get_context(sc.start_method)
        started = time.monotonic()
        executor = None
        futures: dict[Future[worker.WorkerReport], int] = {}
        detected_by: str | None = None
        detect_s: float | None = None
        born = proctree.boot_ticks()
        group = WaveGroup.create(f"gvlstress-{os.getpid()}-{time.monotonic_ns()}", cores=sc.cpu_quota)
        if group is not None:
            for d in group.dirs:
                watchdog.watch_cgroup(str(d))
        self.group = group
        burners = amplify.Burners.start(sc.burners) if sc.burners else None
        try:
            with (
                inherited_env("RAYON_NUM_THREADS", sc.inherit_rayon),
                spawn_without_main(),
                worker_interpreter(ctx, self.plan.python),
            ):
                executor = ProcessPoolExecutor(
                    max_workers=sc.workers,
                    mp_context=ctx,
                    initializer=worker.init,
                    initargs=(
                        self.board.raw,
                        # forkserver children are the fork server's, not ours: no death link
                        os.getpid() if sc.start_method != "forkserver" else None,
                        # Every worker holds its task before any imports the target, so no
                        # process can finish early and take a sibling's slot with a warm pool.
                        ctx.Barrier(sc.workers),
                        list(self.plan.sys_path) or None,
                        self.stderr_dir,
                        # frozen, not killed, if the harness dies: the watchdog then sees (and
                        # kills) each worker with its children still attached
                        signal.SIGSTOP if watchdog.active() else signal.SIGKILL,
                        # workers enter the wave's cgroups themselves, before the target runs
                        group.procs_files if group is not None else None,
                    ),
                )
                self._executor = executor
                for slot in range(sc.workers):
                    futures[executor.submit(worker.main, slot, self.spec(slot))] = slot
                self._hold_pool_internals(executor)
                self.processes = dict(self._pool_processes)
                # No task follows: each worker exits as soon as its own is done, beside the
                # others still working, instead of all exiting after the last one (results
                # still arrive; shutdown() only drops the executor's references, which are
                # held above).
                executor.shutdown(wait=False)
                for pid in self.processes:
                    watchdog.watch(pid)
                    if group is not None:
                        group.join(pid)
            if sc.chaos is not None:
                self.chaos = amplify.Chaos(sc.chaos * 1_000_003 + self.index, self._iterating).start()
            self.end_reason = self._watch(futures, started)
            self.ended_at = time.monotonic()
            self._stop_chaos()  # every thread restored before it is captured or killed
            if self.end_reason in ("stall", "timeout"):
                detected_by = self.end_reason
                detect_s = self.ended_at - started
                self._capture_hung()  # evidence first; the teardown kills
                if self.keep_hung:
                    self._keep_first_hung()
            self._check_squeeze(self.slots)  # workers still alive whose pool was never reported
        finally:
            self._stop_chaos()
            if burners is not None:
                self.amplified["burners"] = {"count": sc.burners, "running_at_end": burners.running()}
            self._teardown(executor)
            if burners is not None:
                burners.stop()
            if group is not None and group.cpu is not None:
                self.amplified["cpu_quota"] = {
                    "cores": group.cores,
                    "cgroup": str(group.cpu),
                    "cgroup_version": group.version,
                    "workers_joined": len(group.joined),
                    "nr_throttled": group.throttled(),
                }
            self._contain(born, burners)
        self._settle(futures)
        self._release_handles()
        if self.squeezed is not None:
            started_slots = [x for x in self.slots if x.state and x.state.pid]
            checked = [x.pinned for x in started_slots if x.pinned is not None]
            self.amplified["squeeze"] = {
                "cpus": sc.squeeze,
                "cpu_ids": list(self.squeezed),
                "workers": len(started_slots),
                "workers_pinned": sum(1 for inside, total in checked if total and inside == total),
                "threads_pinned": sum(inside for inside, _ in checked),
                "threads": sum(total for _, total in checked),
            }
        if self.amplified:
            started_n = sum(1 for x in self.slots if x.state and x.state.pid)
            self.amplified["not_applied"] = amplify.gaps(self.amplified, started_n)
        wall = time.monotonic() - started
        outcomes = failure_diagnoses(
            tuple(
                replace(o, stderr_tail=stderr_tail(self.stderr_dir, o.pid))
                for o in (self._outcome(s) for s in self.slots)
            )
        )
        result = WaveResult(
            index=self.index,
            verdict=worst([o.verdict for o in outcomes]),
            wall_s=wall,
            workers=outcomes,
            detected_by=detected_by,
            detect_s=detect_s,
            interrupted=bool(self.stop),
            env={k: redact_setting(k, v) for k, v in self.spec(0).env.items()},
            amplifiers=dict(self.amplified),
            kept_alive=next(iter(self.kept), None),
            setting=self.setting,
            shard=self.shard,
            seed=wave_seed(sc.seed, self.index),
            leftovers=len(self.leftovers),
        )
        self.observer.wave_finished(result)
        return result

    def _watch(self, futures: dict[Future[worker.WorkerReport], int], started: float) -> str:
        """Poll until every worker is done, a hang is confirmed, the deadline passes or a stop."""
        deadline = started + self.scenario.timeout
        pending = set(futures)
        last_stats = 0.0
        while pending:
            done, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for fut in done:
                self._harvest(futures[fut], fut)
            now = time.monotonic()
            self._read_board(now)
            if now - last_stats >= STATS_S:
                self._sample_stats(now)
                last_stats = now
            if self.stop:
                return "stop"
            if not pending:
                return "done"
            live = [s for s in self.slots if s.outcome is None]
            if now >= deadline:
                self._probe(live)
                return "timeout"
            due = [
                s
                for s in live
                if now - self._last_beat(s, started) > self.threshold(s) and now >= s.next_probe_at
            ]
            if due and self._probe_suspects(due, live):
                return "stall"
            self._presample(live, started, now)
        return "done"

    def _presample(self, live: list[_Slot], started: float, now: float) -> None:
        """The first /proc sample of a probe, taken one window before a quiet worker is due
        (and of its siblings with it), so the probe needs no wait of its own. A sample taken
        before the worker's last beat is worthless and dropped."""
        soon = any(
            now - self._last_beat(s, started) > self.threshold(s) - PROBE_WINDOW_S - POLL_S
            and now + PROBE_WINDOW_S >= s.next_probe_at
            for s in live
            if s.state and s.state.pid
        )
        for s in live:
            pid = s.state.pid if s.state else None
            if pid is None:
                continue
            stale = s.presample is not None and s.presample.at < self._last_beat(s, started)
            if stale or not soon:
                s.presample = None
            elif s.presample is None:
                s.presample = procfs.sample(pid)

    def _last_beat(self, s: _Slot, started: float) -> float:
        return s.state.last_beat if s.state and s.state.last_beat else started

    def _harvest(self, slot: int, fut: Future[worker.WorkerReport]) -> None:
        s = self.slots[slot]
        s.state = self.board.read(slot)
        exc = fut.exception(timeout=0)
        if exc is None:
            rep = fut.result(timeout=0)
            verdict, detail = finished_verdict(s.stalls, rep.batch_s_max, self.scenario)
            s.outcome = WorkerOutcome(
                slot=slot,
                pid=rep.pid,
                verdict=verdict,
                iterations=rep.iterations,
                threads_max=max(rep.threads_max, s.threads_max),
                cpu_s=rep.cpu_s,
                rayon_threads=_int_or_none(rep.target_info.get("rayon_threads")),
                batch_s_max=rep.batch_s_max,
                iter_s=rep.elapsed_s,
                env_inherited=thread_knobs(rep.env_inherited),  # redacted at the door
                env_effective=thread_knobs(rep.env_effective),
                target_info=redact_mapping(rep.target_info),
                probe=s.finding,
                stalls=s.stalls,
                detail=detail,
            )
            if rep.pinned is not None:
                s.pinned = rep.pinned
        elif isinstance(exc, BrokenProcessPool):
            # Attributed in _settle. Exit codes are read now, before our own SIGKILLs.
            if not self._broken:
                self._broken = True
                self._crashed_at_break = self._dead_workers()
        else:
            text = "".join(traceback.format_exception(exc))
            cause = exc.__cause__
            if cause is not None:  # concurrent.futures keeps the worker's traceback here
                text = str(cause) + "\n" + f"{type(exc).__name__}: {exc}"
            s.outcome = self._partial(s, Verdict.ERROR, detail=redact_block(text.strip()[-TRACEBACK_CHARS:]))

    def _dead_workers(self) -> dict[int, int]:
        """Exit codes of workers that died on their own, read before we kill anything.

        The executor's manager thread is terminating and joining every worker right now, and two
        threads reaping one child lose its status: let it finish (bounded), then read. Should it
        not finish in time, dead workers (sentinel ready) are joined here instead.
        """
        if self._pool_manager is not None:
            self._pool_manager.join(timeout=REAP_S)
        procs = list(self.processes.values())
        ready = set(mp_wait([p.sentinel for p in procs], timeout=0))
        for p in procs:
            if p.sentinel in ready and p.exitcode is None:
                p.join(timeout=REAP_S)
        return {
            pid: code
            for pid, p in self.processes.items()
            if (code := p.exitcode) not in (None, 0, -signal.SIGTERM)
        }

    def _read_board(self, now: float) -> None:
        for s in self.slots:
            st = self.board.read(s.slot)
            if st.pid and (s.state is None or s.state.pid != st.pid):
                watchdog.watch(st.pid)  # a worker the executor started after submit
                if self.group is not None:
                    self.group.join(st.pid)
            if s.suspected_at is not None and st.last_beat and st.last_beat > s.suspected_at:
                s.suspected_at = None  # it progressed: `stalls` keeps the fact, the verdict becomes slow
                s.next_probe_at = 0.0
            if st.phase == Phase.ITERATING and st.iterations and s.first_beat_iters is None:
                s.first_beat_iters = (now, st.iterations)
            s.threads_max = max(s.threads_max, st.threads)
            s.state = st
            if st.rayon_threads and s.pinned is None:  # the beat that reports the pool
                self._check_squeeze([s])

    def _check_squeeze(self, slots: list[_Slot]) -> None:
        """--squeeze as it stands in each live worker not checked yet (threads pinned, strays
        re-pinned): on the beat that reports its pool, and before teardown for the rest."""
        if self.squeezed is None:
            return
        for s in slots:
            if s.pinned is None and s.outcome is None and s.state and s.state.pid:
                inside, total = amplify.squeeze(s.state.pid, self.squeezed)
                if total:
                    s.pinned = (inside, total)

    def _sample_stats(self, now: float) -> None:
        rows = []
        for s in self.slots:
            st = s.state
            pid = st.pid if st else None
            if pid and s.outcome is None:
                try:
                    if s.proc is None or s.proc.pid != pid:
                        s.proc = psutil.Process(pid)
                    with s.proc.oneshot():
                        t = s.proc.cpu_times()
                        s.threads_max = max(s.threads_max, s.proc.num_threads())
                    cpu = t.user + t.system
                    if s.cpu_prev is not None and now > s.cpu_prev[0]:
                        s.cpu_percent = 100.0 * (cpu - s.cpu_prev[1]) / (now - s.cpu_prev[0])
                    s.cpu_prev = (now, cpu)
                    s.cpu_s = cpu
                except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                    pass
            rate = 0.0
            if st and s.first_beat_iters and now > s.first_beat_iters[0]:
                rate = (st.iterations - s.first_beat_iters[1]) / (now - s.first_beat_iters[0])
            rows.append(
                WorkerStatus(
                    slot=s.slot,
                    pid=pid,
                    iterations=st.iterations if st else 0,
                    rate=rate,
                    threads=s.threads_max,
                    cpu_percent=s.cpu_percent,
                    state=self._state_label(s),
                )
            )
        self.observer.progress(self.index, tuple(rows))

    def _state_label(self, s: _Slot) -> str:
        if s.outcome is not None:
            return s.outcome.verdict.value
        if s.confirmed:
            return "deadlock"
        if s.suspected_at is not None and s.finding is not None:
            return f"suspect:{s.finding.kind.value}"
        return s.state.phase.name.lower() if s.state else "queued"

    def _probe_suspects(self, due: list[_Slot], live: list[_Slot]) -> bool:
        """Probe quiet workers; True when a deadlock is confirmed (the wave then ends).

        Every live worker is sampled in the same /proc window as the quiet ones, so when a
        deadlock is confirmed the siblings' evidence is already there (no second window), and
        the stacks of every worker that needs them are captured in one parallel round."""
        now = time.monotonic()
        due_pids = {s.state.pid: s for s in due if s.state and s.state.pid}
        by_pid = {s.state.pid: s for s in live if s.state and s.state.pid}
        findings = self._judged(by_pid, due=set(due_pids))
        for pid, s in due_pids.items():
            if pid not in findings:
                continue
            finding = findings[pid]
            if finding.kind is ProbeKind.GONE:
                continue  # it exited while probed: its future says how it ended
            s.stalls += 1
            s.finding = finding
            s.suspected_at = s.state.last_beat if s.state and s.state.last_beat else now
            s.next_probe_at = time.monotonic() + self.threshold(s)
            s.confirmed = finding.kind is ProbeKind.DEADLOCK and not self._moved(s)
            self.observer.suspected(self.index, s.slot, finding)
        for s in due:
            if s.state is None or not s.state.pid:
                s.stalls += 1  # never started: the pool itself is stuck
                s.next_probe_at = now + self.threshold(s)
        if not any(s.confirmed for s in due):
            for pid, s in by_pid.items():
                if pid not in due_pids:
                    s.capture = None  # a sibling's look is kept only when the wave ends on it
            return False
        for pid, s in by_pid.items():  # the rest, from the same window, before anything is killed
            if pid not in due_pids and pid in findings:
                s.finding = findings[pid]
                s.confirmed = s.finding.kind is ProbeKind.DEADLOCK and not self._moved(s)
        return True

    def _stop_chaos(self) -> None:
        """Halt chaos (once) and record what it did."""
        if self.chaos is not None:
            self.amplified["chaos"] = {"seed": self.scenario.chaos, **self.chaos.stop()}
            self.chaos = None

    def _iterating(self) -> list[int]:
        """Workers in their batches now (chaos perturbs only these), read from the board itself
        rather than the loop's last poll, so chaos acts within milliseconds of the first batch."""
        out = []
        for s in self.slots:
            st = self.board.read(s.slot)
            if st.pid and st.phase == Phase.ITERATING and s.outcome is None:
                out.append(st.pid)
        return out

    def _judged(self, by_pid: dict[int, _Slot], due: set[int] | None = None) -> dict[int, ProbeFinding]:
        """/proc findings, refined with stacks where /proc alone cannot decide; the capture is
        kept as the evidence (a process is captured at most once per probe). With `due`, only
        those may be captured unless one of them looks deadlocked (then every worker that
        needs stacks is, in the same round). Chaos holds still meanwhile, so no probe sees a
        worker it stopped."""
        with self.chaos.quiet if self.chaos is not None else contextlib.nullcontext():
            return self._judged_now(by_pid, due)

    def _judged_now(self, by_pid: dict[int, _Slot], due: set[int] | None) -> dict[int, ProbeFinding]:
        first = {pid: s.presample for pid, s in by_pid.items() if s.presample is not None}
        for s in by_pid.values():
            s.presample = None  # used once
        findings = probe_workers(list(by_pid), first=first)
        # A window opened before the heartbeat was quiet for the whole threshold may hold the
        # last of the work before the stall: only a closed or outside wait is taken from it;
        # anything else is looked at again over a window of its own.
        again = [p for p, f in findings.items() if p in first and f.kind not in _FROM_PRESAMPLE]
        if again:
            findings.update(probe_workers(again))
        unsure = {pid: f for pid, f in findings.items() if _needs_stacks(f)}
        if due is not None and not any(findings[p].kind is ProbeKind.DEADLOCK for p in due if p in findings):
            unsure = {pid: f for pid, f in unsure.items() if pid in due}
        for pid, cap in capture_many(unsure).items():
            by_pid[pid].capture = cap
            findings[pid] = decide(findings[pid], cap, progress=True)
        for pid in findings:
            if pid not in unsure:
                by_pid[pid].capture = None  # an older capture no longer matches the finding
        return findings

    def _probe(self, slots: list[_Slot]) -> None:
        """Probe the started workers among `slots`; confirm those shown deadlocked."""
        by_pid = {s.state.pid: s for s in slots if s.state and s.state.pid}
        for pid, finding in self._judged(by_pid).items():
            s = by_pid[pid]
            s.finding = finding
            s.confirmed = finding.kind is ProbeKind.DEADLOCK and not self._moved(s)

    def _moved(self, s: _Slot) -> bool:
        """Did the worker beat since it was last read (i.e. during the probe window)?"""
        st = self.board.read(s.slot)
        return bool(s.state and st.last_beat != s.state.last_beat)

    def _hung(self, s: _Slot) -> bool:
        """Will this live worker be judged a hang (and so deserve a capture)?"""
        if s.outcome is not None or s.finding is None or not (s.state and s.state.pid):
            return False
        if s.confirmed:
            return True
        quiet = self.ended_at - self._last_beat(s, self.ended_at)
        return self.end_reason == "timeout" and quiet > self.threshold(s)

    def _capture_hung(self) -> None:
        """Stacks of every hung worker not yet captured, in parallel, before anything is killed;
        each finding is decided again with them."""
        hung = {s.state.pid: s for s in self.slots if self._hung(s) and s.state and s.state.pid}
        todo = {pid: s.finding for pid, s in hung.items() if s.finding is not None and s.capture is None}
        if hung:
            self.observer.capturing(self.index, tuple(hung))
        for pid, cap in capture_many(todo).items():
            s = hung[pid]
            s.capture = cap
            assert s.finding is not None
            s.finding = decide(s.finding, cap, progress=True)
            s.confirmed = s.confirmed and s.finding.kind is ProbeKind.DEADLOCK

    # -- teardown ---------------------------------------------------------------------------
    def _keep_first_hung(self) -> None:
        """Mark the lowest-slot hung worker to outlive the teardown (it stays watched)."""
        for s in self.slots:
            pid = s.state.pid if s.state else None
            if pid is not None and self._hung(s) and pid in self.processes:
                self.kept = {pid: self.processes[pid]}
                return

    def kept_running(self) -> bool:
        """The kept worker has not exited (exitcode polls waitpid, so a zombie counts as gone)."""
        return any(p.exitcode is None for p in self.kept.values())

    def release(self) -> None:
        """Kill the kept worker (and its children) and reap it, with deadlines; then hand it back
        to the pool, whose manager thread sees it dead, fails its task and ends (otherwise it
        would wait for that task forever, and the interpreter joins it at exit)."""
        kept, self.kept = self.kept, {}
        if kept:
            kill_trees(list(kept), timeout=REAP_S)
            for p in kept.values():
                p.join(timeout=REAP_S)
            self._pool_processes.update(kept)
            if self._pool_wakeup is not None:
                with contextlib.suppress(OSError, ValueError):
                    self._pool_wakeup.wakeup()
        if self._pool_manager is not None:
            self._pool_manager.join(timeout=REAP_S)
        if self.group is not None:  # the kept worker's cgroup: its stragglers go with it
            self.group.close()
            self.group = None

    def _teardown(self, executor: ProcessPoolExecutor | None) -> None:
        """Kill what is still running (hung or cancelled) but a kept worker, shut down, reap;
        all with deadlines."""
        if executor is None:
            return
        procs = dict(self.processes)
        procs.update(self._pool_processes)
        others = {pid: p for pid, p in procs.items() if pid not in self.kept}
        for pid in self.kept:  # hidden from the pool, whose break handling would terminate it
            self._pool_processes.pop(pid, None)
        # Hung or cancelled workers are killed; so are healthy ones whose result is in: all
        # that is left of them is the interpreter's exit, and with it whatever they started.
        running = [pid for pid, p in others.items() if p.exitcode is None]
        self.leftovers |= {c.pid for pid in running for c in proctree.descendants(pid)}
        kill_trees(running, timeout=REAP_S)
        executor.shutdown(wait=False, cancel_futures=True)
        end = time.monotonic() + REAP_S
        for p in others.values():
            p.join(timeout=max(0.0, end - time.monotonic()))
        stragglers = [pid for pid, p in others.items() if p.exitcode is None]
        if stragglers:
            kill_trees(stragglers, timeout=REAP_S)
            for pid in stragglers:
                procs[pid].join(timeout=REAP_S)
        if self._pool_manager is not None and not self.kept:  # with a kept worker: in release()
            self._pool_manager.join(timeout=REAP_S)
            if self._pool_manager.is_alive():
                detach_from_exit(self._pool_manager)
                self.observer.warn(
                    "the process pool's manager thread did not end after its workers were killed; "
                    "it is left behind so the harness can still exit"
                )
        self.processes = procs

    def _contain(self, born: int, burners: amplify.Burners | None) -> None:
        """Nothing the wave started outlives it: everything left in its containment cgroup (at
        any depth, daemonized or not) is killed and the cgroups removed; then, cgroup or not,
        every process carrying the run's token that was born since the wave began and is no
        helper. A kept worker keeps its cgroup and its children until `release()`."""
        if self.group is not None and not self.kept:
            self.leftovers |= set(self.group.close())
            self.group = None
        if (own := watchdog.owner()) is not None:
            keep = watchdog.helpers() | set(self.kept) | {p.pid for p in (burners.procs if burners else [])}
            self.leftovers |= set(proctree.sweep_owned(own[0], born, keep))

    def _hold_pool_internals(self, executor: ProcessPoolExecutor) -> None:
        """The executor's own process table, manager thread and its wakeup, held before
        shutdown() drops the executor's references to them (private, stable since 3.9): the
        only way to learn worker pids before they beat, to join the manager thread, and to hide
        a kept worker from the pool's break handling (the manager thread shares this dict)."""
        live = getattr(executor, "_processes", None)
        self._pool_processes = live if isinstance(live, dict) else {}
        self._pool_manager = getattr(executor, "_executor_manager_thread", None)
        self._pool_wakeup = getattr(executor, "_executor_manager_thread_wakeup", None)

    def _release_handles(self) -> None:
        """Close every reaped worker's handles now (each holds a pipe until it is collected) and
        drop the executor, so nothing this wave opened outlives it (a kept worker stays)."""
        manager = self._pool_manager
        if manager is not None and manager.is_alive():
            return  # it may still touch them; the garbage collector closes them later
        for pid, p in self.processes.items():
            if pid not in self.kept and p.exitcode is not None:
                with contextlib.suppress(ValueError):
                    p.close()
        self.processes = {pid: p for pid, p in self.processes.items() if pid in self.kept}
        self._executor = None
        if not self.kept:
            self._pool_processes, self._pool_manager, self._pool_wakeup = {}, None, None

    def _settle(self, futures: dict[Future[worker.WorkerReport], int]) -> None:
        """Give every slot without an outcome one, now that the wave is over and reaped."""
        for fut, slot in futures.items():
            # A worker may have finished between the last poll and the teardown.
            if self.slots[slot].outcome is None and fut.done() and not fut.cancelled():
                exc = fut.exception(timeout=0)
                if not isinstance(exc, BrokenProcessPool):  # ours: we killed the pool
                    self._harvest(slot, fut)
        for s in self.slots:
            if s.outcome is None:
                s.outcome = self._final(s, self._crashed_at_break)

    def _final(self, s: _Slot, crashed: dict[int, int]) -> WorkerOutcome:
        """The verdict of a worker that did not finish its share of the wave."""
        pid = s.state.pid if s.state else None
        if s.confirmed:
            return self._partial(s, Verdict.DEADLOCK, detail=s.finding.reason if s.finding else None)
        if self.end_reason == "stop":
            return self._partial(
                s, Verdict.CANCELLED, detail=f"run stopped by {signal_name(self.stop.signum)}"
            )
        if self._broken:
            if pid in crashed or not crashed:
                code, sig = exit_status(crashed.get(pid) if pid is not None else None)
                if code is None and sig is None:
                    detail = "process pool broke; the worker that died could not be identified"
                elif sig is None:
                    detail = f"worker died: exit code {code}"
                else:
                    detail = f"worker died: {signal_name(sig)}"
                return self._partial(s, Verdict.CRASH, detail=detail, exit_code=code, signal=sig)
            return self._partial(s, Verdict.CANCELLED, detail="pool broken by a sibling's crash")
        if self.end_reason == "stall":
            return self._partial(s, Verdict.CANCELLED, detail="stopped: a sibling worker deadlocked")
        # The launch timeout: judge what each worker is doing now.
        if pid is None:
            return self._partial(s, Verdict.STALLED, detail="never started: no pool process took its task")
        quiet = self.ended_at - self._last_beat(s, self.ended_at)
        if quiet <= self.threshold(s):
            return self._partial(s, Verdict.SLOW, detail="still progressing at the launch timeout")
        kind = s.finding.kind if s.finding else ProbeKind.STALLED
        verdict = Verdict.LIVELOCK if kind is ProbeKind.LIVELOCK else Verdict.STALLED
        reason = s.finding.reason if s.finding else "no progress"
        if kind is ProbeKind.WAITING:
            reason = f"{reason}, for {quiet:.1f}s"
        return self._partial(
            s, verdict, detail=f"no heartbeat for {quiet:.1f}s at the launch timeout; {reason}"
        )

    def _partial(self, s: _Slot, verdict: Verdict, **extra: Any) -> WorkerOutcome:
        st = s.state
        diagnosis = None
        if verdict.is_hang:
            iters = st.iterations if st else 0
            quiet = self.ended_at - self._last_beat(s, self.ended_at)
            progress = f"no heartbeat for {quiet:.1f}s after {iters} batch(es)"
            diagnosis = explain(verdict, s.finding, s.capture, progress)
        return WorkerOutcome(
            slot=s.slot,
            pid=st.pid if st else None,
            verdict=verdict,
            iterations=st.iterations if st else 0,
            threads_max=max(s.threads_max, len(s.finding.threads) if s.finding else 0),
            cpu_s=s.cpu_s,
            rayon_threads=st.rayon_threads if st else None,
            batch_s_max=st.batch_s_max if st and st.batch_s_max else None,
            probe=s.finding,
            capture=s.capture,
            diagnosis=diagnosis,
            stalls=s.stalls,
            **extra,
        )

    def _outcome(self, s: _Slot) -> WorkerOutcome:
        assert s.outcome is not None
        return s.outcome


def detach_from_exit(thread: threading.Thread) -> None:
    """CPython joins every executor's manager thread at interpreter exit (concurrent.futures'
    exit hook, then threading's shutdown of non-daemon threads): one that never ends (wedged in
    a read no one will finish) would keep the harness from exiting after its report. Taken off
    both lists (private, stable since 3.9), it dies with the process instead."""
    from concurrent.futures import process as cf_process

    with contextlib.suppress(Exception):
        getattr(cf_process, "_threads_wakeups").pop(thread, None)  # noqa: B009
    lock = getattr(thread, "_tstate_lock", None)
    with contextlib.suppress(Exception), getattr(threading, "_shutdown_locks_lock"):  # noqa: B009
        getattr(threading, "_shutdown_locks").discard(lock)  # noqa: B009


def finished_verdict(stalls: int, batch_s_max: float, scenario: Scenario) -> tuple[Verdict, str | None]:
    """A worker that finished its share: ``slow`` when a batch went quiet past the stall floor
    (or the fixed --stall) whether or not it was probed, ``ok`` otherwise. The adaptive
    threshold only decides when to probe (it learns a slow loader's batch time, so later waves
    do not probe the same slow batch again); the verdict does not depend on which wave saw it."""
    floor = scenario.stall if scenario.stall is not None else scenario.stall_floor
    if stalls:
        return Verdict.SLOW, f"stalled {stalls}x past the stall threshold, then progressed"
    if batch_s_max > floor:
        return (
            Verdict.SLOW,
            f"a batch took {batch_s_max:.1f}s, past the stall floor of {floor:g}s, then it progressed",
        )
    return Verdict.OK, None


def failure_diagnoses(outcomes: tuple[WorkerOutcome, ...]) -> tuple[WorkerOutcome, ...]:
    """Name crashes and errors. An error is nondeterministic when siblings running the same code
    on the same kind of data finished cleanly: a wave-level fact, so it is decided here."""
    passed = sum(1 for o in outcomes if o.verdict in (Verdict.OK, Verdict.SLOW))
    errored = sum(1 for o in outcomes if o.verdict is Verdict.ERROR)
    out = []
    for o in outcomes:
        cause = patterns.failure_cause(o.stderr_tail, o.signal) if o.verdict.is_failure else None
        said = f" ({cause.name}: {cause.line[:200]})" if cause and cause.line else ""
        if o.verdict is Verdict.CRASH and o.diagnosis is None:
            line = (o.detail or "worker died").splitlines()[-1]
            evidence = (
                f"{line}; exit code {o.exit_code}, signal {signal_name(o.signal)}",
                f"{o.iterations} batch(es) completed before it died",
                *((f"{cause.name}, from its stderr: {cause.line}",) if cause and cause.line else ()),
            )
            o = replace(
                o,
                diagnosis=Diagnosis(
                    Verdict.CRASH,
                    f"crash: {line} after {o.iterations} batch(es){said}",
                    evidence,
                    pattern=patterns.CRASH,
                    hint=cause.hint if cause else patterns.HINTS[patterns.CRASH],
                ),
            )
        elif o.verdict is Verdict.ERROR and o.diagnosis is None:
            last = ((o.detail or "").strip().splitlines() or ["(no traceback)"])[-1]
            name = patterns.NONDETERMINISTIC_ERROR if passed else patterns.ERROR
            evidence = (
                f"{errored} of {len(outcomes)} workers raised; {passed} finished cleanly with the same code",
                f"raised after {o.iterations} batch(es): {last}",
            )
            o = replace(
                o,
                diagnosis=Diagnosis(
                    Verdict.ERROR,
                    f"error ({name}): {last}{said}",
                    evidence,
                    pattern=name,
                    hint=cause.hint if cause else patterns.HINTS[name],
                ),
            )
        out.append(o)
    return tuple(out)


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
