"""When and whom to probe: /proc first (two samples of every live worker), stacks only where
/proc cannot decide, judged by `judge.verdict` from the thread that calls the target.

A probe never sees a state the harness made: chaos holds still meanwhile. Its first /proc
sample is taken a window before a quiet worker is due (of every live worker with it), so a
deadlock is decided the moment the stall threshold passes, with the siblings' evidence from the
same window and every capture in one parallel round.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import replace

from gvlstress.judge import patterns, vocab
from gvlstress.judge.look import GENERIC
from gvlstress.judge.tree import behind_child, child_waited, pipe_waited
from gvlstress.judge.verdict import decide, judge
from gvlstress.model import ProbeFinding, ProbeKind, ProcSample
from gvlstress.probes import procfs
from gvlstress.probes.capture import capture_many
from gvlstress.probes.core import Keep, keep_all
from gvlstress.probes.procfs import PROBE_WINDOW_S
from gvlstress.supervisor.look import look_and_judge, peers_of
from gvlstress.supervisor.slots import Slot
from gvlstress.system import proctree
from gvlstress.system.heartbeat import Board

_FROM_PRESAMPLE = (ProbeKind.DEADLOCK, ProbeKind.WAITING, ProbeKind.GONE, ProbeKind.STOPPED)
"""What a window opened before the whole threshold passed may decide (see `Prober.judged`)."""


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


LOOK_S = 1.0
"""How long ``run`` looks again at a quiet worker /proc left burning or waiting (see
`Prober._look_again`): three looks at its stacks and its children's."""
MAX_KIDS = 16
"""Descendants of a worker looked at with it (a pool's workers, a loader child)."""


def spin_like(f: ProbeFinding) -> bool:
    """Every thread that burned CPU over the probe window moved no byte and touched no new page:
    a spin's signature (compute in a loader allocates and faults pages: polars' rayon threads
    thousands a second, numpy's kernels hundreds). Only such a worker is looked at again while
    it burns, since each look stops it a few times."""
    hot = [t for t in f.threads if not t.parked and t.cpu_s > 0.05 * f.window_s]
    return bool(hot) and all(not t.faults and not t.moved for t in hot)


def _hung(f: ProbeFinding, s: Slot) -> bool:
    """A deadlock, or a spin whose cause a rule named (a named livelock ends the wave at the
    stall; an unnamed one waits for the launch timeout, as real work might end)."""
    return f.kind is ProbeKind.DEADLOCK or (f.kind is ProbeKind.LIVELOCK and s.named is not None)


def needs_stacks(f: ProbeFinding) -> bool:
    """/proc alone says deadlock, or the progress thread waits on a lock that another thread
    might still end: the stacks decide (what it waits in; which threads are idle by design)."""
    return f.kind is ProbeKind.DEADLOCK or (f.kind is ProbeKind.WAITING and bool(f.chain))


class Prober:
    """Probes one wave's workers; their slots keep the findings and captures."""

    def __init__(
        self,
        board: Board,
        threshold: Callable[[Slot], float],
        quiet: Callable[[], contextlib.AbstractContextManager[object]],
        poll_s: float,
        cores: Keep | None = None,
    ) -> None:
        self.board = board
        self.cores = cores
        """``--keep-core``: where the hung workers' cores go (`capture` writes them)."""
        self.threshold = threshold
        self.quiet = quiet
        """Held while sampling and probing: chaos and the gang resume what they stopped, and stop
        nothing meanwhile."""
        self.poll_s = poll_s

    def presample(self, live: list[Slot], started: float, now: float) -> None:
        """The first /proc sample of a probe, taken one window before a quiet worker is due
        (and of its siblings with it), so the probe needs no wait of its own. A sample taken
        before the worker's last beat is worthless and dropped."""
        soon = any(
            now - s.last_beat(started) > self.threshold(s) - PROBE_WINDOW_S - self.poll_s
            and now + PROBE_WINDOW_S >= s.next_probe_at
            for s in live
            if s.pid
        )
        with self.quiet() if soon else contextlib.nullcontext():
            for s in live:
                pid = s.pid
                if pid is None:
                    continue
                stale = s.presample is not None and s.presample.at < s.last_beat(started)
                if stale or not soon:
                    s.presample = None
                elif s.presample is None:
                    s.presample = procfs.sample(pid)  # with nothing stopped by chaos or the gang

    def judged(self, by_pid: dict[int, Slot], due: set[int] | None = None) -> dict[int, ProbeFinding]:
        """/proc findings, refined with stacks where /proc alone cannot decide; the capture is
        kept as the evidence (a process is captured at most once per probe). With `due`, only
        those may be captured unless one of them looks deadlocked (then every worker that needs
        stacks is, in the same round)."""
        with self.quiet():
            for s in by_pid.values():
                s.named = None  # a pattern named at an earlier probe no longer holds
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
            unsure = {pid: f for pid, f in findings.items() if needs_stacks(f)}
            if due is not None and not any(
                findings[p].kind is ProbeKind.DEADLOCK for p in due if p in findings
            ):
                unsure = {pid: f for pid, f in unsure.items() if pid in due}
            for pid, cap in capture_many(unsure).items():
                by_pid[pid].capture = cap
                findings[pid] = decide(findings[pid], cap, progress=True)
            for pid in findings:
                if pid not in unsure:
                    by_pid[pid].capture = None  # an older capture no longer matches the finding
            self._behind_children(findings, by_pid, due)
            self._look_again(findings, by_pid, due)
            return findings

    def _behind_children(
        self, findings: dict[int, ProbeFinding], by_pid: dict[int, Slot], due: set[int] | None
    ) -> None:
        """A quiet worker blocked reading a pipe from its own child (a loader child, a DataLoader
        worker) or waiting for one in wait4(): the child is probed (the worker's silence is its progress signal too), and a
        deadlocked child that is the pipe's only writer is the worker's hang (`tree.behind_child`)."""
        for pid, f in list(findings.items()):
            if f.kind is not ProbeKind.WAITING or (due is not None and pid not in due):
                continue
            if not (pipe_waited(f) or child_waited(f)):
                continue
            kids = [c.pid for c in proctree.descendants(pid)]
            if not kids:
                continue
            found = {c: k for c, k in probe_workers(kids).items() if k.kind is not ProbeKind.GONE}
            caps = capture_many({c: k for c, k in found.items() if needs_stacks(k)})
            found = {c: decide(k, caps.get(c), progress=True) for c, k in found.items()}
            behind = behind_child(f, found, {c: procfs.pipe_ends(c) for c in found})
            if behind is not None:
                findings[pid] = behind
                by_pid[pid].capture = caps.get(behind.pid)

    def _look_again(
        self, findings: dict[int, ProbeFinding], by_pid: dict[int, Slot], due: set[int] | None
    ) -> None:
        """A quiet worker that /proc alone leaves burning (livelock) or waiting on something
        outside it: look again over `LOOK_S` with its descendants and stacks several times, and
        judge them together (`judge.look`). A spin whose cause is named, a pool that lost a task,
        a peer that has gone is a hang now, at the stall, not at the launch timeout."""
        for pid, f in list(findings.items()):
            if due is not None and pid not in due:
                continue
            if f.kind is ProbeKind.DEADLOCK:
                cap = by_pid[pid].capture
                named = patterns.match(f, cap)
                main = cap.thread(pid) if cap else None
                pooled = main is not None and vocab.waits_for_pool_results(main)
                if named is not None and named.pattern not in GENERIC and not pooled:
                    continue  # a shape of its own stacks names it already
            elif f.kind is ProbeKind.LIVELOCK and not spin_like(f):
                continue  # real work touches memory or moves bytes: no stacks taken from it now
            elif f.kind not in (ProbeKind.LIVELOCK, ProbeKind.WAITING):
                continue
            kids = [c.pid for c in proctree.descendants(pid)][:MAX_KIDS]
            family = [pid, *kids]
            looked, judged = look_and_judge([*family, *peers_of(family)], LOOK_S, tree=True, progress=(pid,))
            if pid not in judged:
                continue
            again, named = judged[pid]
            if again.kind is ProbeKind.DEADLOCK or (again.kind is ProbeKind.LIVELOCK and named is not None):
                findings[pid] = again
                by_pid[pid].capture = looked[pid].capture
                by_pid[pid].named = named

    def suspects(self, due: list[Slot], live: list[Slot], told: Callable[[Slot, ProbeFinding], None]) -> bool:
        """Probe quiet workers; True when a deadlock is confirmed (the wave then ends).

        Every live worker is sampled in the same /proc window as the quiet ones, so when a
        deadlock is confirmed the siblings' evidence is already there (no second window), and
        the stacks of every worker that needs them are captured in one parallel round."""
        now = time.monotonic()
        due_pids = {s.pid: s for s in due if s.pid}
        by_pid = {s.pid: s for s in live if s.pid}
        findings = self.judged(by_pid, due=set(due_pids))
        for pid, s in due_pids.items():
            finding = findings.get(pid)
            if finding is None or finding.kind is ProbeKind.GONE:
                continue  # it exited while probed: its future says how it ended
            s.stalls += 1
            s.finding = finding
            s.suspected_at = s.state.last_beat if s.state and s.state.last_beat else now
            s.next_probe_at = time.monotonic() + self.threshold(s)
            s.confirmed = _hung(finding, s) and not self.moved(s)
            told(s, finding)
        for s in due:
            if not s.pid:
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
                s.confirmed = _hung(s.finding, s) and not self.moved(s)
        return True

    def everyone(self, slots: list[Slot]) -> None:
        """Probe the started workers among `slots` (at the launch timeout); confirm those shown
        deadlocked."""
        by_pid = {s.pid: s for s in slots if s.pid}
        for pid, finding in self.judged(by_pid).items():
            s = by_pid[pid]
            s.finding = finding
            s.confirmed = _hung(finding, s) and not self.moved(s)

    def capture(self, hung: dict[int, Slot]) -> None:
        """Stacks of every hung worker not yet captured, in parallel, before anything is killed;
        each finding is decided again with them."""
        todo = {pid: s.finding for pid, s in hung.items() if s.finding is not None and s.capture is None}
        for pid, cap in capture_many(todo).items():
            s = hung[pid]
            s.capture = cap
            assert s.finding is not None
            s.finding = decide(s.finding, cap, progress=True)
            s.confirmed = s.confirmed and _hung(s.finding, s)
        if self.cores is not None:  # after the stacks: the tools' attaches are over
            caps = {
                pid: s.capture for pid, s in hung.items() if s.capture is not None and s.capture.core is None
            }
            for pid, kept in keep_all(self.cores, list(caps)).items():
                hung[pid].capture = replace(caps[pid], core=kept)

    def moved(self, s: Slot) -> bool:
        """Did the worker beat since it was last read (i.e. during the probe window)?"""
        st = self.board.read(s.slot)
        return bool(s.state and st.last_beat != s.state.last_beat)
