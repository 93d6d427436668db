"""The ProcessPoolExecutor of one wave, and every private attribute of it used anywhere.

Why private attributes at all: the executor learns worker pids only through ``_processes`` (the
only way to watch workers before they beat), its manager thread must be joined (CPython joins it
at exit otherwise), and a worker kept alive for a debugger must be hidden from the pool's break
handling, which shares that process table. They are stable since 3.9; this file is the one place
that touches them.
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
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing.connection import wait as mp_wait
from typing import Any

from gvlstress import worker
from gvlstress.probes.procfs import zombie_status
from gvlstress.scenario import Scenario
from gvlstress.supervisor.spec import inherited_env, inherited_knobs, spawn_without_main, worker_interpreter
from gvlstress.system import proctree, watchdog
from gvlstress.system.heartbeat import Board
from gvlstress.system.knobs import environ_with
from gvlstress.system.proctree import kill_trees
from gvlstress.targets.base import TargetPlan

REAP_S = 5.0
"""Every join and kill of the wave's teardown has this deadline."""
WEDGED_S = 0.5
"""A manager thread still alive this long after every worker died is wedged (see `unwedge`)."""


class Pool:
    """One wave's executor: start, learn pids, find who died, tear down, keep one worker alive."""

    def __init__(
        self,
        scenario: Scenario,
        plan: TargetPlan,
        board: Board,
        stderr_dir: str | None,
        cgroups: list[str],
        env: dict[str, str] | None = None,
    ) -> None:
        self.scenario = scenario
        self.plan = plan
        self.board = board
        self.stderr_dir = stderr_dir
        self.cgroups = cgroups
        self.env = env or {}
        """Added to the workers' birth environment (the delay layer's, with --delays)."""
        self.processes: dict[int, Any] = {}
        """Every worker process seen (pid -> multiprocessing.Process)."""
        self.kept: dict[int, Any] = {}
        """A hung worker spared at teardown (``hunt --keep-alive``); `release()` ends it."""
        self._table: dict[int, Any] = {}
        self._manager: threading.Thread | None = None
        self._wakeup: Any = None
        self._results: Any = None
        """The result queue (a SimpleQueue): its write end in this process is what keeps a pipe
        whose writer died mid-frame from ever reaching EOF (see `unwedge`)."""
        self._executor: ProcessPoolExecutor | None = None
        """Held until the wave's handles are released: its start arguments (the barrier's
        semaphores) must outlive the workers' start, which reads them by name."""
        self._started = False

    def start(self, specs: list[worker.WorkerSpec]) -> dict[Future[worker.WorkerResult], int]:
        """Start the workers, one task each; the futures by slot."""
        sc = self.scenario
        ctx = mp.get_context(sc.start_method)
        with (
            inherited_knobs(sc.inherit_env),
            inherited_env("RAYON_NUM_THREADS", sc.inherit_rayon),
            environ_with(self.env),
            spawn_without_main(),
            worker_interpreter(ctx, self.plan.python, self.plan.sys_path),
        ):
            executor = ProcessPoolExecutor(
                max_workers=sc.workers,
                mp_context=ctx,
                initializer=worker.init,
                initargs=(
                    self.board.raw,
                    # forkserver children are the fork server's, not ours: no death link
                    os.getpid() if sc.start_method != "forkserver" else None,
                    # Every worker holds its task before any imports the target, so no process
                    # can finish early and take a sibling's slot with a warm pool.
                    ctx.Barrier(sc.workers),
                    list(self.plan.sys_path) or None,
                    self.stderr_dir,
                    # frozen, not killed, if the harness dies: the watchdog then sees (and kills)
                    # each worker with its children still attached
                    signal.SIGSTOP if watchdog.active() else signal.SIGKILL,
                    # workers enter the wave's cgroups themselves, before the target runs
                    self.cgroups or None,
                ),
            )
            futures = {executor.submit(worker.main, slot, spec): slot for slot, spec in enumerate(specs)}
            self._executor = executor
            self._hold(executor)
            # No task follows: each worker exits as soon as its own is done, beside the others
            # still working (results still arrive; shutdown() only drops the executor's
            # references, which are held above).
            executor.shutdown(wait=False)
        self._started = True
        self.processes = dict(self._table)
        return futures

    def _hold(self, executor: ProcessPoolExecutor) -> None:
        """The executor's process table, manager thread and its wakeup, held before shutdown()
        drops the executor's references to them (the manager thread shares the table)."""
        live = getattr(executor, "_processes", None)
        self._table = live if isinstance(live, dict) else {}
        self._manager = getattr(executor, "_executor_manager_thread", None)
        self._wakeup = getattr(executor, "_executor_manager_thread_wakeup", None)
        self._results = getattr(executor, "_result_queue", None)

    def dead_workers(self) -> dict[int, int]:
        """Exit codes of workers that died on their own, read before we kill anything.

        The executor's manager thread is terminating and joining every worker right now, and two
        threads reaping one child lose its status: let it finish (bounded), then read. Should it
        not finish in time, dead workers (sentinel ready) are joined here instead.
        """
        if self._manager is not None:
            self._manager.join(timeout=REAP_S)
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

    def dead_unreaped(self) -> dict[int, int]:
        """Workers that exited and nobody reaped (zombies): pid -> wait status, read from /proc
        (never reaped here: the executor owns them, and an executor that does not reap a dead
        worker is the finding). A healthy executor reaps a dead worker within milliseconds."""
        out = {}
        for pid in self.processes:
            status = zombie_status(pid)
            if status is not None:
                out[pid] = status
        return out

    def manager_stack(self) -> tuple[str, ...]:
        """Where the executor's manager thread is now, innermost last, as ``function (file:line)``,
        read in this process (no tool needed): a wedge shows it in Connection._recv."""
        frame = sys._current_frames().get(self._manager.ident or -1) if self._manager else None
        if frame is None:
            return ()
        return tuple(
            f"{fs.name} ({os.path.basename(fs.filename)}:{fs.lineno})"
            for fs in traceback.extract_stack(frame)[-4:]
        )

    def unwedge(self) -> None:
        """Close this process's write end of the result pipe: once every worker is dead, the
        manager thread's read reaches EOF, so it sees the pool broken, reaps and ends."""
        writer = getattr(self._results, "_writer", None)
        if writer is not None:
            with contextlib.suppress(OSError):
                writer.close()

    def keep(self, pid: int) -> bool:
        """Spare this worker at teardown (it stays watched); False if it is not ours."""
        if pid in self.processes:
            self.kept = {pid: self.processes[pid]}
            return True
        return False

    def kept_running(self) -> bool:
        """The kept worker has not exited (exitcode polls waitpid, so a zombie counts as gone)."""
        return any(p.exitcode is None for p in self.kept.values())

    def teardown(self) -> tuple[set[int], bool]:
        """Kill what still runs (hung, cancelled, or healthy with its result in: all that is left
        of those is the interpreter's exit) but a kept worker, and reap, all with deadlines. The
        pids of what the workers had started (killed with them), and whether the pool's manager
        thread had to be left behind."""
        if not self._started:
            return set(), False
        procs = dict(self.processes)
        procs.update(self._table)
        others = {pid: p for pid, p in procs.items() if pid not in self.kept}
        for pid in self.kept:  # hidden from the pool, whose break handling would terminate it
            self._table.pop(pid, None)
        running = [pid for pid, p in others.items() if p.exitcode is None]
        started = {c.pid for pid in running for c in proctree.descendants(pid)}
        kill_trees(running, timeout=REAP_S)
        end = time.monotonic() + REAP_S
        for p in others.values():
            p.join(timeout=max(0.0, end - time.monotonic()))
        stragglers = [pid for pid, p in others.items() if p.exitcode is None]
        if stragglers:
            kill_trees(stragglers, timeout=REAP_S)
            for pid in stragglers:
                procs[pid].join(timeout=REAP_S)
        detached = False
        if self._manager is not None and not self.kept:  # with a kept worker: in release()
            # A healthy manager ends within milliseconds of its workers' deaths; one still
            # reading is wedged on a frame a dead worker never finished.
            self._manager.join(timeout=WEDGED_S)
            if self._manager.is_alive():
                self.unwedge()
                self._manager.join(timeout=REAP_S)
            if self._manager.is_alive():
                detach_from_exit(self._manager)
                detached = True
        self.processes = procs
        return started, detached

    def release(self) -> None:
        """Kill the kept worker (and its children) and reap it, with deadlines; then hand it back
        to the pool, whose manager thread sees it dead, fails its task and ends (otherwise it
        would wait for that task forever, and the interpreter joins it at exit)."""
        kept, self.kept = self.kept, {}
        if kept:
            kill_trees(list(kept), timeout=REAP_S)
            for p in kept.values():
                p.join(timeout=REAP_S)
            self._table.update(kept)
            if self._wakeup is not None:
                with contextlib.suppress(OSError, ValueError):
                    self._wakeup.wakeup()
        if self._manager is not None:
            self._manager.join(timeout=REAP_S)

    def release_handles(self) -> None:
        """Close every reaped worker's handles now (each holds a pipe until it is collected), so
        nothing this wave opened outlives it (a kept worker stays)."""
        if self._manager is not None and self._manager.is_alive():
            return  # it may still touch them; the garbage collector closes them later
        for pid, p in self.processes.items():
            if pid not in self.kept and p.exitcode is not None:
                with contextlib.suppress(ValueError):
                    p.close()
        self.processes = {pid: p for pid, p in self.processes.items() if pid in self.kept}
        if not self.kept:
            self._table, self._manager, self._wakeup, self._executor = {}, None, None, None
            self._results = None


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
