"""What a look reads of the machine, and its clock: one seam between the look pipeline and the probes.

The look pipeline (`pipeline`, `series`, `family`) and the prober (`supervisor.probing`) read
every process through a `Host`: its /proc samples, its children, its stacks, the wiring between
processes, and the time (they sleep through it, too). `LIVE` reads this machine's /proc and runs
the stack tools, as every caller wants; a test hands in a host that replays a recorded world (per
process its samples, stacks and wiring, on a clock that moves only when the look sleeps), so the
pipeline's decisions (which stage settled a process, how long it looked, whom it took in) run in
the fast tier without a process started.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Protocol

import psutil

from gvlstress.model import ProcSample
from gvlstress.model.stacks import Local
from gvlstress.model.wiring import SharedLock, Wiring
from gvlstress.probes import capture, kin, procfs, pyspy, shm, wiring
from gvlstress.probes.capture import Stacks
from gvlstress.probes.tools import Hung

__all__ = ["LIVE", "Host", "Live"]


class Host(Protocol):
    """The machine as a look reads it (every method reads; none changes anything but the clock)."""

    def me(self) -> int:
        """The pid of the process that looks (never judged as one of the processes looked at)."""
        ...

    def monotonic(self) -> float:
        """Now, on the clock the samples' ``at`` is on."""
        ...

    def sleep(self, seconds: float) -> None:
        """Let `seconds` pass (a window's interval, the gap of a /proc pair)."""
        ...

    def sample(self, pid: int) -> ProcSample | None:
        """Every thread of `pid` now (`procfs.sample`); None once it is gone."""
        ...

    def children(self, pid: int) -> tuple[int, ...]:
        """Its children now, cheaply (`kin.children`: /proc/PID/task/*/children)."""
        ...

    def offspring(self, pid: int, recursive: bool) -> list[int]:
        """Its children (with `recursive`, every descendant), nearest first, zombies included;
        empty when it is gone."""
        ...

    def origin(self, pid: int) -> tuple[int, float] | None:
        """Its parent's pid and its own start time; None when it is gone."""
        ...

    def zombie_status(self, pid: int) -> int | None:
        """The wait status of `pid` if it is a zombie, else None (`procfs.zombie_status`)."""
        ...

    def forked_from(self, pid: int) -> int | None:
        """The parent it is a fork of (it never exec'd), else None (`procfs.forked_from`)."""
        ...

    def pipe_ends(self, pid: int) -> dict[str, str]:
        """The pipes it holds: 'pipe:[N]' -> 'r', 'w' or 'rw' (`procfs.pipe_ends`)."""
        ...

    def stacks(self, pid: int, native_view: bool, hung: Hung, python_view: bool = True) -> Stacks:
        """One look at its stacks (`capture.take`): Python, then (with `native_view`) native."""
        ...

    def frame_locals(self, pid: int, wanted: Mapping[tuple[str, str], tuple[str, ...]]) -> tuple[Local, ...]:
        """The `wanted` locals of its Python frames (`pyspy.frame_locals`)."""
        ...

    def wiring(self, pids: list[int], waited: set[str]) -> Wiring:
        """The descriptors of `pids` and every holder of the `waited` pipes and sockets
        (`wiring.wiring`)."""
        ...

    def shared_locks(self, waits: list[tuple[int, int]]) -> dict[tuple[int, int], SharedLock]:
        """The shared lock each (pid, futex address) waits on (`shm.shared_locks`)."""
        ...


class Live:
    """This machine: /proc, psutil, the stack tools, `time.monotonic` and `time.sleep`."""

    def me(self) -> int:
        return os.getpid()

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)  # a look's measurement interval, not a synchronisation

    def sample(self, pid: int) -> ProcSample | None:
        return procfs.sample(pid)

    def children(self, pid: int) -> tuple[int, ...]:
        return kin.children(pid)

    def offspring(self, pid: int, recursive: bool) -> list[int]:
        try:
            return [c.pid for c in psutil.Process(pid).children(recursive=recursive)]
        except psutil.Error:
            return []

    def origin(self, pid: int) -> tuple[int, float] | None:
        try:
            proc = psutil.Process(pid)
            return proc.ppid(), proc.create_time()
        except psutil.Error:
            return None

    def zombie_status(self, pid: int) -> int | None:
        return procfs.zombie_status(pid)

    def forked_from(self, pid: int) -> int | None:
        return procfs.forked_from(pid)

    def pipe_ends(self, pid: int) -> dict[str, str]:
        return procfs.pipe_ends(pid)

    def stacks(self, pid: int, native_view: bool, hung: Hung, python_view: bool = True) -> Stacks:
        return capture.take(pid, native_view, hung, python_view=python_view)

    def frame_locals(self, pid: int, wanted: Mapping[tuple[str, str], tuple[str, ...]]) -> tuple[Local, ...]:
        return pyspy.frame_locals(pid, wanted)[1]

    def wiring(self, pids: list[int], waited: set[str]) -> Wiring:
        return wiring.wiring(pids, waited)

    def shared_locks(self, waits: list[tuple[int, int]]) -> dict[tuple[int, int], SharedLock]:
        return shm.shared_locks(waits)


LIVE: Host = Live()
"""The default of every look: this machine, now."""
