"""A recorded world as a look's `Host` (`gvlstress.look.host`): the look pipeline and the prober
run on it in the fast tier, without a process started or a second slept.

The world is written with the builders of `lookshapes` (a `World` of `Proc`s of `Th`reads): each
process's counters (CPU, switches, bytes) grow at the rate its threads' figures over
`lookshapes.WINDOW` say, so a parked process reads the same at every sample and a moving one moves
between any two. A process may instead replay recorded /proc samples, each from the second
it was taken on (whatever the number of reads in between), and recorded py-spy output. The
clock starts at `time.monotonic()` (so a sample's ``at`` compares with a heartbeat board's
times) and moves only when the look sleeps; every read is logged, so a test asserts how
many samples were taken, whose stacks, and how long the look watched.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from gvlstress.model import NativeThread, ProcSample, ToolRun
from gvlstress.model.stacks import Local
from gvlstress.model.wiring import SharedLock, Wiring
from gvlstress.probes import pyspy
from gvlstress.probes.capture import Stacks
from gvlstress.probes.tools import Hung
from lookshapes import World, frames, python_threads, sample_at

ME = 3_999_999
"""The pid of the looking process in a recorded world, unless a world says otherwise."""


@dataclass(frozen=True)
class Read:
    """One read the look made: what (``sample``, ``stacks``, ``locals``, ``sleep``), of whom, and
    when (seconds since the world began)."""

    what: str
    pid: int
    t: float
    native: bool = False
    """For ``stacks``: the native view was asked for too."""


class Recorded:
    """A `Host` that replays `world`: its processes (born and gone at the given seconds), their
    children (their `Proc.parent`), stacks, locals and wiring; `replay` gives a process its
    recorded /proc samples instead, as (seconds since the world began, sample): each read gets
    the last one taken by then; `dumps` its recorded py-spy output (JSON) as its Python view. `me`: the looking process's pid; `during`: called after
    every sleep with the seconds since the world began (a heartbeat that beats mid-look)."""

    def __init__(
        self,
        world: World,
        *,
        born: Mapping[int, float] | None = None,
        gone: Mapping[int, float] | None = None,
        replay: Mapping[int, Sequence[tuple[float, ProcSample]]] | None = None,
        dumps: Mapping[int, str] | None = None,
        me: int = ME,
        during: Callable[[float], None] | None = None,
    ) -> None:
        self.world = world
        self.procs = {p.pid: p for p in world.procs}
        self.born = dict(born or {})
        self.gone = dict(gone or {})
        self.replay = {pid: sorted(samples, key=lambda x: x[0]) for pid, samples in (replay or {}).items()}
        self.dumps = dict(dumps or {})
        self.pid = me
        self.during = during
        self.start = time.monotonic()
        self.now = self.start
        self.reads: list[Read] = []
        self.naps: list[float] = []
        """Every sleep of the look, in seconds, in order."""
        self._lock = threading.Lock()

    # the log

    def log(self, what: str, pid: int, native: bool = False) -> None:
        with self._lock:  # stacks are taken from a thread pool
            self.reads.append(Read(what, pid, round(self.now - self.start, 3), native))

    def count(self, what: str, pid: int | None = None) -> int:
        return sum(1 for r in self.reads if r.what == what and (pid is None or r.pid == pid))

    def stacked(self) -> set[int]:
        """Whose stacks were taken (stopped by a tool)."""
        return {r.pid for r in self.reads if r.what == "stacks"}

    @property
    def slept(self) -> float:
        """Seconds the look let pass."""
        return round(self.now - self.start, 6)

    # the world at this instant

    def alive(self, pid: int) -> bool:
        t = self.now - self.start
        return pid in self.procs and self.born.get(pid, 0.0) <= t and t < self.gone.get(pid, float("inf"))

    def _zombies(self) -> dict[int, int]:
        return {c: st for p in self.world.procs if self.alive(p.pid) for c, st in p.zombies.items()}

    # the Host protocol

    def me(self) -> int:
        return self.pid

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0, seconds
        # at least one step of the float: a loop that sleeps until a deadline always gets there
        self.now = max(self.now + seconds, math.nextafter(self.now, math.inf)) if seconds > 0 else self.now
        self.naps.append(seconds)
        self.log("sleep", 0)
        if self.during is not None:
            self.during(self.now - self.start)

    def sample(self, pid: int) -> ProcSample | None:
        self.log("sample", pid)
        if not self.alive(pid):
            return None
        if pid in self.replay:
            t = self.now - self.start
            taken = [s for since, s in self.replay[pid] if since <= t] or [self.replay[pid][0][1]]
            return replace(taken[-1], at=self.now)
        return replace(
            sample_at(self.procs[pid], self.now - self.start - self.born.get(pid, 0.0)), at=self.now
        )

    def children(self, pid: int) -> tuple[int, ...]:
        return tuple(p.pid for p in self.world.procs if p.parent == pid and self.alive(p.pid))

    def offspring(self, pid: int, recursive: bool) -> list[int]:
        if not self.alive(pid):
            return []
        out = [*self.children(pid), *self.procs[pid].zombies]
        if recursive:
            for kid in self.children(pid):
                out += [k for k in self.offspring(kid, True) if k not in out]
        return out

    def origin(self, pid: int) -> tuple[int, float] | None:
        p = self.procs.get(pid)
        if p is None or p.parent is None or not self.alive(pid):
            return None
        return p.parent, p.started

    def zombie_status(self, pid: int) -> int | None:
        return self._zombies().get(pid)

    def forked_from(self, pid: int) -> int | None:
        return self.procs[pid].forked_from if pid in self.procs else None

    def pipe_ends(self, pid: int) -> dict[str, str]:
        return dict(self.procs[pid].pipes) if pid in self.procs else {}

    def stacks(self, pid: int, native_view: bool, hung: Hung, python_view: bool = True) -> Stacks:
        later = any(r.what == "stacks" and r.pid == pid for r in self.reads)
        self.log("stacks", pid, native_view)
        if not self.alive(pid):
            gone = "no such process"
            return Stacks(
                pid,
                self.now,
                ToolRun("py-spy", False, 0.0, (), gone),
                (),
                None,
                ToolRun("native", False, 0.0, (), gone),
                (),
                None,
            )
        p = self.procs[pid]
        py = python_threads(p, later) if python_view else ()
        raw = self.dumps.get(pid) if python_view else None
        if raw is not None:
            py = pyspy.parse_json(raw)
        py_run = (
            ToolRun("py-spy", True, 0.1)
            if python_view
            else ToolRun("py-spy", False, 0.0, (), "not asked for")
        )
        nat = (
            tuple(
                NativeThread(
                    t.tid, None, frames(t.later_native if later and t.later_native is not None else t.native)
                )
                for t in p.threads
            )
            if native_view
            else ()
        )
        nat_run = (
            ToolRun("pystack", True, 0.3)
            if native_view
            else ToolRun("native", False, 0.0, (), "not asked for")
        )
        return Stacks(pid, self.now, py_run, py, raw, nat_run, nat, None, p.forked_from)

    def frame_locals(self, pid: int, wanted: Mapping[tuple[str, str], tuple[str, ...]]) -> tuple[Local, ...]:
        self.log("locals", pid)
        return self.procs[pid].locals if pid in self.procs else ()

    def wiring(self, pids: list[int], waited: set[str]) -> Wiring:
        return Wiring(
            {pid: self.procs[pid].files for pid in pids if pid in self.procs},
            self.world.sockets,
            {t: h for t, h in self.world.holders.items() if t in waited},
            flock_takers=self.world.flock_takers,
        )

    def shared_locks(self, waits: list[tuple[int, int]]) -> dict[tuple[int, int], SharedLock]:
        return {w: self.world.shared[w] for w in waits if w in self.world.shared}
