"""One wave: launch N workers, watch their heartbeats, catch hangs, capture, kill, reap.

The loop never blocks without a deadline: it waits on the futures for one poll interval at a
time and reads the heartbeat board in between. A worker whose heartbeat goes quiet past the
stall threshold is probed (`probing`); on a hang, evidence is captured first and the worker
process trees are killed after (`pool`), and nothing the wave started outlives it
(`containment`: its cgroups, the run's token). The amplifiers are pulled and halted around the
loop (`levers`). The verdicts themselves are pure rules (`judge.outcome`) fed what the loop saw.
"""

from __future__ import annotations

import signal
import time
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from gvlstress import worker
from gvlstress.judge import outcome
from gvlstress.judge.outcome import EndReason, WaveEnd
from gvlstress.model import Diagnosis, Verdict, WaveResult, WorkerOutcome, worst
from gvlstress.model.live import WorkerStatus
from gvlstress.probes.corewriter import Keep
from gvlstress.scenario import Scenario
from gvlstress.supervisor import delays
from gvlstress.supervisor.containment import Containment
from gvlstress.supervisor.delays import DelayLayer, preloaded
from gvlstress.supervisor.events import Observer, StopFlag
from gvlstress.supervisor.levers import Levers
from gvlstress.supervisor.pool import Pool
from gvlstress.supervisor.probing import Prober
from gvlstress.supervisor.provoke import WedgeWatch, killers
from gvlstress.supervisor.slots import Slot
from gvlstress.supervisor.spec import stderr_tail, wave_seed, worker_failure, worker_spec
from gvlstress.system.heartbeat import Board, Phase
from gvlstress.system.knobs import redact_setting, thread_knobs
from gvlstress.system.redact import redact_mapping
from gvlstress.targets.base import TargetPlan

__all__ = ["POLL_S", "Observer", "StopFlag", "Wave", "WorkerStatus", "wave_seed", "worker_spec"]

POLL_S = 0.2
"""How often the loop wakes to read heartbeats (also the latency of Ctrl-C handling)."""
STATS_S = 0.5
"""How often live stats (CPU, threads) are sampled for the display."""


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
        delays: DelayLayer | None = None,
        cores: Keep | None = None,
    ) -> None:
        self.index = index
        self.setting = setting
        self.shard = shard
        self.keep_hung = keep_hung
        """Spare the first hung worker at teardown (``hunt --keep-alive``); `release()` ends it."""
        self.scenario = scenario
        self.plan = plan
        self.board = board
        self.observer = observer
        self.stop = stop
        self.batch_s_seen = batch_s_seen
        self.stderr_dir = stderr_dir
        self.slots = [Slot(i) for i in range(scenario.workers)]
        self.end = WaveEnd(EndReason.DONE)
        self.ended_at = 0.0
        self.pool: Pool | None = None
        self.contained: Containment | None = None
        """The wave's cgroups and leftovers, from the start of `run()`."""
        self.delays = delays
        """The run's delay layer (--delays): the workers' environment, and what hangs teach it."""
        self.levers = Levers(scenario, index, board)
        self.wedge_watch = WedgeWatch()
        self.prober = Prober(board, self.threshold, self.levers.quiet, POLL_S, cores)

    def threshold(self, s: Slot) -> float:
        """Seconds of heartbeat silence before `s` is probed (batches less what chaos held them)."""
        sc, held = self.scenario, self.levers.held()
        slowest = [(x.state.batch_s_max, held.get(x.pid or 0, 0.0)) for x in self.slots if x.state]
        seen = outcome.taught(self.batch_s_seen, slowest)
        return outcome.stall_threshold(sc.stall, sc.stall_floor, sc.startup_grace, seen, s.iterating)

    def spec(self, slot: int) -> worker.WorkerSpec:
        return worker_spec(self.scenario, self.plan, self.index, slot)

    # -- the loop ---------------------------------------------------------------------------
    def run(self) -> WaveResult:
        sc = self.scenario
        self.board.reset()
        self.observer.wave_started(self.index, sc)
        started = time.monotonic()
        futures: dict[Future[worker.WorkerResult], int] = {}
        detected_by: str | None = None
        detect_s: float | None = None
        contained = self.contained = Containment(sc)
        self.levers.start_burners()
        try:
            born_with = self.delays.begin_wave(sc.delays) if self.delays and sc.delays is not None else None
            self.pool = Pool(sc, self.plan, self.board, self.stderr_dir, contained.procs_files, born_with)
            futures = self.pool.start([self.spec(slot) for slot in range(sc.workers)])
            for pid in self.pool.processes:
                contained.adopt(pid)
            self.levers.pull(self._iterating)
            self.end = WaveEnd(
                self._watch(futures, started), self.stop.signum, self.end.broken, self.end.crashed
            )
            self.ended_at = time.monotonic()
            self.levers.halt()  # every thread restored before it is captured or killed
            if self.end.reason is EndReason.WEDGE:
                self._record_wedge()
            if self.end.reason in (EndReason.STALL, EndReason.TIMEOUT, EndReason.WEDGE):
                detected_by = self.end.reason.value
                detect_s = self.ended_at - started
                self._capture_hung()  # evidence first (and what the delay layer learns); the teardown kills
                if self.keep_hung:
                    self._keep_first_hung()
            self.levers.check_squeeze(self.slots)  # workers still alive whose pool was never reported
        finally:
            self._teardown(contained)
        self._settle(futures)
        return self._result(started, detected_by, detect_s)

    def _teardown(self, contained: Containment) -> None:
        """End the wave's levers and its workers, record what the amplifiers saw, and sweep
        whatever it started (also when the wave's loop raised)."""
        self.levers.halt()
        if self.pool is not None:
            started_by_workers, detached = self.pool.teardown()
            contained.leftovers |= started_by_workers
            if detached:
                self.observer.warn(
                    "the process pool's manager thread did not end after its workers were killed; "
                    "it is left behind so the harness can still exit"
                )
        self.levers.stop_burners()
        self.levers.applied |= contained.record()
        contained.sweep(set(self.pool.kept) if self.pool else set(), self.levers.burner_pids())

    def _result(self, started: float, detected_by: str | None, detect_s: float | None) -> WaveResult:
        """The wave's record, once every slot has its outcome: the levers each worker had, the
        crashes and errors named, the worst verdict."""
        sc = self.scenario
        if self.pool is not None:
            self.pool.release_handles()
        started_slots = [x for x in self.slots if x.pid]  # the levers checked in each started worker
        amplified = self.levers.record(started_slots, self.delays)
        outcomes = outcome.failure_diagnoses(
            tuple(replace(o, stderr_tail=stderr_tail(self.stderr_dir, o.pid)) for o in self._outcomes()),
            self._killers((amplified.get("memory_limit") or {}).get("oom_kills", 0)),
        )
        wedged = [Verdict.DEADLOCK] if self.end.wedge is not None else []  # the executor itself hangs
        result = WaveResult(
            index=self.index,
            verdict=worst([*(o.verdict for o in outcomes), *wedged]),
            wall_s=time.monotonic() - started,
            workers=outcomes,
            detected_by=detected_by,
            detect_s=detect_s,
            interrupted=bool(self.stop),
            env={k: redact_setting(k, v) for k, v in self.spec(0).env.items()},
            amplifiers=amplified,
            kept_alive=next(iter(self.pool.kept), None) if self.pool else None,
            setting=self.setting,
            shard=self.shard,
            seed=wave_seed(sc.seed, self.index),
            leftovers=len(self.contained.leftovers) if self.contained else 0,
        )
        self.observer.wave_finished(result)
        return result

    def _watch(self, futures: dict[Future[worker.WorkerResult], int], started: float) -> EndReason:
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
                for s in self.slots:
                    s.sample(now)
                self.observer.progress(self.index, tuple(s.status(now) for s in self.slots))
                last_stats = now
            if self.stop:
                return EndReason.STOP
            if not pending:
                return EndReason.DONE
            live = [s for s in self.slots if s.outcome is None]
            if self._wedge_seen(now, {futures[f] for f in pending}):
                return EndReason.WEDGE
            if now >= deadline:
                self.prober.everyone(live)
                return EndReason.TIMEOUT
            due = [
                s for s in live if now - s.last_beat(started) > self.threshold(s) and now >= s.next_probe_at
            ]
            told = lambda s, f: self.observer.suspected(self.index, s.slot, f)  # noqa: E731
            if due and self.prober.suspects(due, live, told):
                return EndReason.STALL
            self.prober.presample(live, started, now)
        return EndReason.DONE

    def _wedge_seen(self, now: float, pending_slots: set[int]) -> bool:
        """A worker dead and unreaped for WEDGE_S while its task is pending: the executor wedged."""
        if self.pool is None:
            return False
        pending = {p for s in self.slots if s.slot in pending_slots and (p := s.pid) is not None}
        return self.wedge_watch.seen(self.pool.dead_unreaped(), pending, now, self.end.broken)

    def _record_wedge(self) -> None:
        """The wedge's evidence, before anything is killed: this process's manager thread, the
        dead worker, and the survivors (probed; those blocked behind the dead one captured)."""
        assert self.pool is not None
        pid = self.wedge_watch.pid
        live = [s for s in self.slots if s.outcome is None and s.pid != pid]
        self.prober.everyone(live)
        self.prober.capture({p: s for s in live if (p := s.pid) and s.state and s.state.phase == Phase.DONE})
        killed_by = self._killers(self.contained.oom_kills() if self.contained else 0)
        self.end = replace(
            self.end, wedge=self.wedge_watch.facts(self.slots, self.pool.manager_stack(), killed_by)
        )

    def _killers(self, oom_kills: int | None) -> dict[int, str]:
        """Who killed the workers that died of SIGKILL on their own (see `provoke.killers`)."""
        died = [pid for pid, code in self.end.crashed.items() if code == -signal.SIGKILL]
        if (w := self.wedge_watch).pid is not None and w.status & 0x7F == signal.SIGKILL:
            died.append(w.pid)
        return killers(self.levers.killer, oom_kills or 0, died)

    def _harvest(self, slot: int, fut: Future[worker.WorkerResult]) -> None:
        s = self.slots[slot]
        s.state = self.board.read(slot)
        exc = fut.exception(timeout=0)
        rep = fut.result(timeout=0) if exc is None else None
        if isinstance(rep, worker.WorkerReport):
            sc = self.scenario
            verdict, detail = outcome.finished(s.stalls, rep.batch_s_max, sc.stall, sc.stall_floor)
            rayon = rep.target_info.get("rayon_threads")
            s.outcome = WorkerOutcome(
                slot=slot,
                pid=rep.pid,
                verdict=verdict,
                iterations=rep.iterations,
                threads_max=max(rep.threads_max, s.threads_max),
                cpu_s=rep.cpu_s,
                rayon_threads=rayon if isinstance(rayon, int) and not isinstance(rayon, bool) else None,
                batch_s_max=rep.batch_s_max,
                iter_s=rep.elapsed_s,
                env_inherited=thread_knobs(rep.env_inherited),  # redacted at the door
                env_effective=thread_knobs(rep.env_effective),
                target_info=redact_mapping(rep.target_info),
                probe=s.finding,
                stalls=s.stalls,
                detail=detail,
            )
            s.pinned = rep.pinned if rep.pinned is not None else s.pinned
            s.switch_interval = rep.switch_interval
        elif isinstance(exc, BrokenProcessPool):  # attributed in _settle; exit codes read now
            if not self.end.broken and self.pool is not None:
                self.end = replace(self.end, broken=True, crashed=self.pool.dead_workers())
        else:  # the target raised: its worker's record (or one made here), never its exception
            f = worker_failure(rep, exc)
            ending = outcome.Ending(Verdict.ERROR, f.traceback)
            s.outcome = replace(self._outcome_of(s, ending), raised=f.type, message=f.message)

    def _read_board(self, now: float) -> None:
        for s in self.slots:
            st = self.board.read(s.slot)
            if st.pid and (s.state is None or s.state.pid != st.pid):
                if self.contained is not None:  # a worker the executor started after submit
                    self.contained.adopt(st.pid)
                if self.scenario.delays is not None:  # mapped at exec, if at all: look at first sight
                    s.preloaded = preloaded(st.pid)
            s.read(st, now)
            if st.rayon_threads and s.pinned is None:  # the beat that reports the pool
                self.levers.check_squeeze([s])

    def _iterating(self) -> list[int]:
        """Workers in their batches now (chaos perturbs only these), read from the board itself
        rather than the loop's last poll, so chaos acts within milliseconds of the first batch."""
        out = []
        for s in self.slots:
            st = self.board.read(s.slot)
            if st.pid and st.phase == Phase.ITERATING and s.outcome is None:
                out.append(st.pid)
        return out

    # -- hangs and teardown -----------------------------------------------------------------
    def _facts(self, s: Slot) -> outcome.SlotFacts:
        return s.facts(self.ended_at, self.ended_at, self.threshold(s))

    def _hung(self) -> dict[int, Slot]:
        """Live workers that will be judged a hang (they deserve a capture), by pid."""
        return {
            s.pid: s
            for s in self.slots
            if s.pid and s.outcome is None and outcome.captured(self._facts(s), self.end)
        }

    def _capture_hung(self) -> None:
        hung = self._hung()
        if hung:
            self.observer.capturing(self.index, tuple(hung))
        self.prober.capture(hung)
        if self.delays is not None:  # while the hung are alive to map their addresses
            self.delays.learn(delays.deadlocked(hung))

    def _keep_first_hung(self) -> None:
        """Mark the lowest-slot hung worker to outlive the teardown (it stays watched)."""
        assert self.pool is not None
        hung = self._hung()
        for pid in sorted(hung, key=lambda p: hung[p].slot):
            if self.pool.keep(pid):
                return

    def kept_running(self) -> bool:
        return self.pool is not None and self.pool.kept_running()

    def release(self) -> None:
        """End the kept worker (``hunt --keep-alive``) and its cgroup."""
        if self.pool is not None:
            self.pool.release()
        if self.contained is not None:
            self.contained.close()

    def _settle(self, futures: dict[Future[worker.WorkerResult], int]) -> None:
        """Give every slot without an outcome one, now that the wave is over and reaped."""
        for fut, slot in futures.items():
            # A worker may have finished between the last poll and the teardown.
            if self.slots[slot].outcome is None and fut.done() and not fut.cancelled():
                exc = fut.exception(timeout=0)
                if not isinstance(exc, BrokenProcessPool):  # ours: we killed the pool
                    self._harvest(slot, fut)
        pids = outcome.attribute_deaths([s.pid for s in self.slots], self.end.crashed)
        for s, pid in zip(self.slots, pids, strict=True):
            if s.outcome is None:
                facts = replace(self._facts(s), pid=pid, reported=s.pid is not None)
                s.outcome = replace(self._outcome_of(s, outcome.unfinished(facts, self.end)), pid=pid)

    def _outcome_of(self, s: Slot, ending: outcome.Ending) -> WorkerOutcome:
        return s.outcome_of(ending, self._diagnosis(s, ending))

    def _diagnosis(self, s: Slot, ending: outcome.Ending) -> Diagnosis | None:
        w = self.end.wedge
        if w is not None and ending.verdict in (Verdict.CRASH, Verdict.DEADLOCK, Verdict.CANCELLED):
            return outcome.wedge_diagnosis(ending.verdict, self._facts(s), w)
        return outcome.hang_diagnosis(ending.verdict, self._facts(s), s.capture)

    def _outcomes(self) -> list[WorkerOutcome]:
        assert all(s.outcome is not None for s in self.slots)
        return [s.outcome for s in self.slots if s.outcome is not None]
