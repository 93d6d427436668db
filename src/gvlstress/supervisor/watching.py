"""The watch loop: a long job read from /proc until it stops making progress, then looked at.

A watch is a wave whose worker someone else wrote: the job (started here, or attached to with
``--pid``) and its descendants are read every `TICK_S` from /proc only (`probes.progress`: CPU,
bytes, pages, processes; the job's output lines and an explicit heartbeat or log-line signal when
asked), and nothing is stopped or attached to before a stall. When no progress (`judge.progress`)
came for ``--stall`` seconds, the tree is looked at through the one look pipeline, with a
progress signal on every process (the tree went quiet), exactly as ``run`` looks at a quiet worker
and ``inspect --tree`` at a tree. A hang is handed to the caller (the report) and then kept,
killed or signalled; a healthy quiet spell (idle, sleeping, computing, waiting on a live peer) is
noted and looked at again after twice, four and eight times the stall if it stays quiet.

The job keeps the terminal: it runs in its own process group, made the terminal's foreground
group when gvlstress has the terminal, so Ctrl-C and its stdin reach it as if it ran alone.
Signals gvlstress itself gets (a scheduler's SIGTERM) are passed to the job's group, which gets
`GRACE_S` to end before the rest of its tree is killed.

What the loop reads and acts on goes through one seam: the job (`Watched`: `job.Job` by default),
the tree's membership and stops (`Tree`: /proc by default), and the clock, each thread's wait and
the look itself (`look.host.Host`: `LIVE` by default), bundled as a `Seam`. A test hands in a recorded world and a job
that replays it, so the loop's decisions run in the fast tier without a process started.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Collection
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from gvlstress.judge import progress
from gvlstress.look.host import LIVE, Host
from gvlstress.look.pipeline import Seen, look_and_judge
from gvlstress.model import HostFacts, worst
from gvlstress.model.look import Subject
from gvlstress.model.watch import HangAction, Quiet, Stop, TreeReading
from gvlstress.probes import host as hostenv
from gvlstress.probes import progress as counters
from gvlstress.probes.tools import Hung
from gvlstress.supervisor.events import StopFlag
from gvlstress.supervisor.history import ExitLog
from gvlstress.supervisor.job import Job, WatchPlan
from gvlstress.supervisor.stops import Stops
from gvlstress.system import proctree, watchdog

TICK_S = 1.0
"""Between two readings of the tree's counters (/proc only)."""
TREE_S = 5.0
"""Between two scans for the tree's processes (every process's parent: the costlier read)."""
GRACE_S = 10.0
"""How long a job gets to end after the signal gvlstress passed on, before its tree is killed."""
BACKOFF = (1, 2, 4, 8)
"""A quiet job judged healthy is looked at again after these multiples of the stall, then after
every further 8 (16, 24, ...): not at every tick once it has been quiet for 8."""


def look_due(stall_s: float, looks: int) -> float:
    """Quiet seconds after which a job already looked at `looks` times in this spell is looked at
    again."""
    if looks < len(BACKOFF):
        return stall_s * BACKOFF[looks]
    return stall_s * BACKOFF[-1] * (looks - len(BACKOFF) + 2)


class Watching(Protocol):
    """What the loop tells its caller (the API: reports; the console: the live view)."""

    def reading(self, r: TreeReading, quiet_s: float, last: str) -> None: ...

    def quiet(self, spell: Quiet, seen: Seen) -> None: ...

    def hang(self, seen: Seen, quiet_s: float) -> None: ...

    def stopped(self, spell: Quiet) -> None:
        """Processes of the job were found stopped by job control (or SIGSTOP): resumed, or
        reported (`spell.summary` says which)."""

    def kept(self, pid: int, group: bool) -> None:
        """A hang was found and the job is left running for a human (--on-hang keep)."""


class Watched(Protocol):
    """The watched job as the loop uses it (`job.Job`)."""

    pid: int

    @property
    def ours(self) -> bool:
        """Started by this watch (not attached to with ``--pid``)."""
        ...

    def ended(self, timeout: float = 0.0, wake: StopFlag | None = None) -> int | None: ...

    def reading(self, pids: tuple[int, ...]) -> TreeReading: ...

    def signal(self, sig: int) -> None: ...

    def kill_tree(self) -> None: ...

    def resume(self) -> bool: ...

    def terminal_device(self) -> int | None: ...

    def release_terminal(self) -> None: ...

    def close(self) -> None: ...


class Tree(Protocol):
    """Which processes the job's tree holds, and which are stopped or gone (/proc only)."""

    def members(self, root: int, skip: Collection[int]) -> tuple[int, ...]:
        """`root` and every live descendant, not `skip` nor what descends from it."""
        ...

    def stopped(self, pids: tuple[int, ...]) -> tuple[Stop, ...]:
        """Those of `pids` stopped (state T), each with the terminal that stopped it, if any."""
        ...

    def alive(self, pid: int) -> bool:
        """`pid` exists and is not a zombie."""
        ...


class ProcTree:
    """This machine's /proc (`probes.progress`, `system.proctree`)."""

    def members(self, root: int, skip: Collection[int]) -> tuple[int, ...]:
        return counters.tree(root, skip=skip)

    def stopped(self, pids: tuple[int, ...]) -> tuple[Stop, ...]:
        return counters.stopped(pids)

    def alive(self, pid: int) -> bool:
        return proctree.alive(pid)


PROC: Tree = ProcTree()
"""The default tree: this machine, now."""


@dataclass(frozen=True)
class Seam:
    """What a watch reads and acts on: the job `start` makes from the plan, its `tree`, the clock,
    each thread's wait and what a look reads (`host`), the `guard` a watch runs under (the
    watchdog that ends what the job leaves behind if gvlstress dies) and the host's `facts` a
    report gives (tools and versions). `LIVE_SEAM`: this machine."""

    start: Callable[[WatchPlan], Watched] = Job
    tree: Tree = PROC
    host: Host = LIVE
    guard: Callable[[], AbstractContextManager[object]] = watchdog.guarding
    facts: Callable[[], HostFacts] = hostenv.snapshot


LIVE_SEAM = Seam()
"""The default of every watch: this machine, now."""


class Watcher:
    """One watch: read, wait for a stall, look, report, act; until the job ends or a stop."""

    def __init__(
        self,
        plan: WatchPlan,
        stop: StopFlag,
        tell: Watching,
        seam: Seam = LIVE_SEAM,
    ) -> None:
        """`seam`: the job, its tree, the clock and what the look reads (this machine, by default)."""
        self.plan, self.stop, self.tell = plan, stop, tell
        self.start, self.tree, self.host = seam.start, seam.tree, seam.host
        self.hung = Hung()
        self.spells: list[Quiet] = []
        self.hang_seen: Seen | None = None
        self.action: str | None = None
        self.exit_code: int | None = None
        self.stops = Stops()
        self.healthy_prints: dict[int, tuple[tuple[object, ...], ...]] = {}
        """Each process's `fingerprint` as the last look, which found the tree healthy, left it."""
        self.last_healthy: tuple[Seen, Quiet] | None = None
        self.t0 = self.host.monotonic()
        self.log = ExitLog()

    def run(self) -> None:
        job = self.start(self.plan)
        self.pid = job.pid
        try:
            self._loop(job)
        except BaseException:  # a second Ctrl-C, a bug: a job we started does not outlive us
            if job.ours and job.ended() is None:
                job.kill_tree()
            raise
        finally:
            job.close()

    def _loop(self, job: Watched) -> None:
        explicit = self.plan.heartbeat is not None or self.plan.progress_regex is not None
        me = (os.getpid(),)  # never itself: a watcher inside the tree it watches (the pytest plugin's)
        pids = self.tree.members(job.pid, me)
        self.log.see(pids, 0.0)
        last = job.reading(pids)
        moved_at, tree_at, step = last.at, last.at, 0
        said = "started"
        while True:
            code = job.ended(TICK_S, self.stop)
            if code is not None:
                self.exit_code = code
                return
            if self.stop:
                self._stop(job)
                return
            now = self.host.monotonic()
            if now - tree_at >= TREE_S:
                pids, tree_at = self.tree.members(job.pid, me), now
                self.log.see(pids, now - self.t0)
            r = job.reading(pids)
            moved = progress.between(last, r, explicit)
            last = r
            if moved.moved:
                moved_at, step, said = r.at, 0, "; ".join(moved.signs)
                self.healthy_prints = {}  # a new spell: its first look is a whole one
            quiet = r.at - moved_at
            if quiet >= TICK_S and (stopped := self.tree.stopped(pids)):
                self._stopped(job, stopped, r.at)
            self.tell.reading(r, quiet, said)
            if self.hang_seen is not None or quiet < look_due(self.plan.stall_s, step):
                continue
            tree_now = self.tree.members(job.pid, me)
            self.log.see(tree_now, r.at - self.t0)
            if self._unchanged(tree_now, r.at, quiet):
                step += 1
                continue
            prints = {q: fingerprint(q, self.host) for q in tree_now}  # before the look's stops disturb them
            seen = self._look(tree_now)
            hung = [p for p, j in seen.judged.items() if j.hung]
            ended = _ended_since(job, self.tree, pids, r, hung, explicit) if hung else None
            if ended is not None:
                # a hang never ends by itself: what moved or exited during the look was a wait
                # that ended (a pipeline's writer closing, a feeder thread's late write)
                spell = Quiet(round(r.at - self.t0, 1), round(quiet, 1), "stalled", ended, False)
                self.spells.append(spell)
                self.tell.quiet(spell, seen)
                moved_at, step = self.host.monotonic(), 0
                continue
            if hung:
                self.hang_seen = seen
                self.tell.hang(seen, quiet)
                self._act(job)
                if self.plan.on_hang is HangAction.KILL:
                    self.exit_code = None
                    return
                continue
            verdict = worst([j.verdict for j in seen.judged.values()]).value if seen.judged else "gone"
            spell = Quiet(round(r.at - self.t0, 1), round(quiet, 1), verdict, _summary(seen), False)
            self.spells.append(spell)
            self.tell.quiet(spell, seen)
            self.last_healthy = (seen, spell)
            self.healthy_prints = {q: f for q, f in prints.items() if f is not None}
            step += 1

    def _unchanged(self, pids: tuple[int, ...], at: float, quiet: float) -> bool:
        """The quiet tree is as the last look, which found it healthy, left it: the same
        processes, each thread in the same wait (state, wait channel, system call and its
        arguments), none running or in the disk. Then /proc alone judges it (healthy, as
        before) and no stack is taken, no process stopped: the look's cost is a /proc read."""
        if not self.healthy_prints or self.last_healthy is None or set(pids) != set(self.healthy_prints):
            return False
        if any(fingerprint(p, self.host) != self.healthy_prints[p] for p in pids):
            return False
        seen, before = self.last_healthy
        summary = (
            f"unchanged since the look at {before.at_s:.0f}s (every thread in the same wait): judged from "
            "/proc alone, no stack taken, no process stopped"
        )
        spell = Quiet(round(at - self.t0, 1), round(quiet, 1), before.verdict, summary, False)
        self.spells.append(spell)
        self.tell.quiet(spell, seen)
        return True

    def _stopped(self, job: Watched, stops: tuple[Stop, ...], at: float) -> None:
        """Processes of the job stopped (state T): resumed or reported once (`stops.Stops`)."""
        summary = self.stops.handle(job, stops)
        if summary is None:
            return
        spell = Quiet(round(at - self.t0, 1), 0.0, "stopped", summary, False)
        self.spells.append(spell)
        self.tell.stopped(spell)

    def _look(self, pids: tuple[int, ...]) -> Seen:
        """The tree through the one look pipeline; every process has gone quiet (a progress
        signal on each: a closed wait set is a deadlock, a burn without progress a livelock)."""
        subjects, window = [Subject(p, p) for p in pids], self.plan.window_s
        return look_and_judge(
            subjects,
            window,
            tree=True,
            adaptive=True,
            hung=self.hung,
            exited=self.log.history,
            host=self.host,
        )

    def _act(self, job: Watched) -> None:
        """--on-hang, once the report is written."""
        if self.plan.on_hang is HangAction.KILL:
            job.kill_tree()
            self.action = "killed the job's process tree"
        elif self.plan.on_hang is HangAction.SIGNAL:
            job.signal(self.plan.hang_signal)
            self.action = f"sent {signal.Signals(self.plan.hang_signal).name} to the job"
        else:
            self.action = f"left the job running (pid {job.pid}) for a human"
            job.release_terminal()  # Ctrl-C now reaches watch, which passes it on and ends the tree
            self.tell.kept(job.pid, job.ours)

    def _stop(self, job: Watched) -> None:
        """gvlstress was asked to stop: the job gets the same signal and GRACE_S to end, then its
        tree is killed; an attached job (not ours) is left as it is."""
        if not job.ours:
            return
        job.signal(self.stop.signum or signal.SIGTERM)
        self.exit_code = job.ended(GRACE_S)
        if self.exit_code is None:
            job.kill_tree()


def fingerprint(pid: int, host: Host = LIVE) -> tuple[tuple[object, ...], ...] | None:
    """Where each of the process's threads waits, from /proc alone (no ptrace): its id,
    state, wait channel, system call and arguments. None when it is gone, or when a thread
    runs or waits on the disk (no picture to compare: a spin looks the same twice)."""
    sample = host.sample(pid)
    if sample is None or any(t.state in ("R", "D") for t in sample.threads):
        return None
    return tuple((t.tid, t.state, t.wchan, t.syscall, t.args) for t in sample.threads)


def _summary(seen: Seen) -> str:
    """The root's verdict in one line, for the record of a quiet spell."""
    root = seen.look.subjects[0] if seen.look.subjects else None
    j = seen.judged.get(root) if root is not None else None
    if j is None:
        return "the job exited while it was looked at"
    return f"{j.verdict.value}: {j.finding.reason}"


def _ended_since(
    job: Watched, tree: Tree, pids: tuple[int, ...], before: TreeReading, hung: list[int], explicit: bool
) -> str | None:
    """What says the look's hang had already ended when the look was done, or None: a process
    judged hung has exited, or the tree made progress since the reading before the look (a
    final check from /proc alone: a hang found, then confirmed, before anything is acted on)."""
    gone = [p for p in hung if not tree.alive(p)]
    if gone:
        return f"process(es) {', '.join(map(str, gone))} judged hung exited during the look: it was a wait that ended"
    moved = progress.between(before, job.reading(pids), explicit)
    if moved.moved:
        return f"the tree made progress during the look ({'; '.join(moved.signs)}): a wait that ended, not a hang"
    return None
