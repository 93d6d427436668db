"""Levers that provoke process-level failure: a worker killed as the OOM killer would kill one.

``--kill-worker sending`` SIGKILLs the first worker found blocked writing its result to the
executor's result pipe (its heartbeat says its share is done, and /proc says its main thread is
in write() on a pipe); ``--kill-worker random`` SIGKILLs one worker, drawn with the wave's seed,
once it reaches a batch drawn the same way. Both act once per wave, from a thread beside the
supervisor's loop, and say in run.json whom they killed and when.

Why `sending` matters: CPython's ProcessPoolExecutor sends a large result as one frame under
the result queue's write lock; a worker killed mid-frame leaves the pool's manager thread
waiting forever for the rest of it (the pipe's write ends stay open in the parent and the other
workers, so no EOF ever comes), never noticing the death: the executor wedges (the
whole signature of the #263 hang, the built-in loader target's known hang).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import threading
import time
from typing import Any

from gvlstress.judge.outcome import Wedge, wedged
from gvlstress.model.fd import FdTarget
from gvlstress.model.syscalls import syscall_name
from gvlstress.supervisor.slots import Slot
from gvlstress.system.heartbeat import Board, Phase

POLL_S = 0.0005
"""How often a worker that finished its share is looked at while it sends (a 64 MB result takes
tens of milliseconds to cross the pipe; a 16 kB one fits in the pipe and never blocks)."""
_WRITES = ("write", "writev")


def blocked_writing_a_pipe(pid: int) -> bool:
    """Is the process's main thread in write() on a pipe right now (read from /proc, no ptrace)?"""
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            parts = fh.read().split()
        if not parts or parts[0] == "running" or syscall_name(int(parts[0])) not in _WRITES:
            return False
        return FdTarget.parse(os.readlink(f"/proc/{pid}/fd/{int(parts[1], 16)}")).is_pipe
    except (OSError, ValueError, IndexError):
        return False


class Killer:
    """Kills one worker of the wave, once, the way `when` says."""

    def __init__(self, when: str, seed: int, board: Board, workers: int, iterations: int) -> None:
        self.when = when
        self.board = board
        self.workers = workers
        rng = random.Random(seed)
        self.slot = rng.randrange(workers)
        self.batch = rng.randint(1, max(1, iterations))
        self.killed: dict[str, Any] | None = None
        self._halt = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gvlstress-killer", daemon=True)

    def start(self) -> Killer:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._halt.is_set() and self.killed is None:
            if self.when == "sending":
                self._sending()
            else:
                self._random()
            self._halt.wait(POLL_S if self.when == "sending" else 0.005)

    def _sending(self) -> None:
        for slot in range(self.workers):
            st = self.board.read(slot)
            if st.pid and st.phase == Phase.DONE and blocked_writing_a_pipe(st.pid):
                self._kill(slot, st.pid, st.iterations, "blocked writing its result to the result pipe")
                return

    def _random(self) -> None:
        st = self.board.read(self.slot)
        if st.pid and (st.iterations >= self.batch or st.phase >= Phase.DONE):
            self._kill(self.slot, st.pid, st.iterations, f"at batch {st.iterations}")

    def _kill(self, slot: int, pid: int, batches: int, how: str) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
            self.killed = {"slot": slot, "pid": pid, "batches": batches, "how": how, "at": time.monotonic()}

    def stop(self) -> dict[str, Any]:
        """Halt, and say what was done (run.json's record of the lever)."""
        self._halt.set()
        self._thread.join(timeout=5)
        record: dict[str, Any] = {"when": self.when}
        if self.when == "random":
            record.update(slot=self.slot, batch=self.batch)
        if self.killed is not None:
            record["killed"] = {k: v for k, v in self.killed.items() if k != "at"}
        return record


class WedgeWatch:
    """Notices a worker that died without the executor noticing (see `judge.outcome.wedged`)."""

    def __init__(self) -> None:
        self.dead_since: dict[int, float] = {}
        self.pid: int | None = None
        self.status = 0

    def seen(self, dead: dict[int, int], pending: set[int], now: float, broken: bool) -> bool:
        for pid in dead:
            self.dead_since.setdefault(pid, now)
        found = wedged(dead, self.dead_since, pending, now, broken)
        if found is None:
            return False
        self.pid = found
        self.status = dead[found]
        return True

    def facts(self, slots: list[Slot], manager_stack: tuple[str, ...], killed_by: dict[int, str]) -> Wedge:
        """The wedge as the verdict rules take it."""
        assert self.pid is not None
        dead = next((s for s in slots if s.pid == self.pid), None)
        st = dead.state if dead else None
        return Wedge(
            pid=self.pid,
            status=self.status,
            killed_by=killed_by.get(self.pid),
            manager_stack=manager_stack,
            batches=st.iterations if st else 0,
            sending=bool(st and st.phase == Phase.DONE),
        )


def killers(killer: Killer | None, oom_kills: int, sigkilled: list[int]) -> dict[int, str]:
    """Workers the harness knows who killed: its own --kill-worker; the OOM killer of the wave's
    memory limit for workers SIGKILLed by no one else (certain when the cgroup counted as many
    OOM kills as there are such workers, likely otherwise)."""
    out = {}
    if killer is not None and killer.killed is not None:
        out[int(killer.killed["pid"])] = (
            f"killed by gvlstress --kill-worker {killer.when} ({killer.killed['how']})"
        )
    others = [pid for pid in sigkilled if pid not in out]
    if oom_kills and others:
        sure = "" if oom_kills >= len(others) else "most likely "
        for pid in others:
            out[pid] = (
                f"{sure}killed by the kernel's OOM killer (the wave's memory limit; {oom_kills} OOM kill(s))"
            )
    return out
