"""When and whom to look at: a quiet worker once it is due, its siblings in the same /proc
window, everyone at the launch deadline, the hung before the kill. What to read and how long,
and every verdict, are the look pipeline's (`gvlstress.look`), the same one ``inspect --tree``
and ``watch`` use: this module only turns its judgement into the slots' state.

A look never sees a state the harness made: chaos holds still meanwhile. Its first /proc
sample is taken a window before a quiet worker is due (of every live worker with it), so a
deadlock is decided the moment the stall threshold passes, with the siblings' evidence from the
same window and every capture in one parallel round.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace

from gvlstress.judge.across import Judgement
from gvlstress.look.host import LIVE, Host
from gvlstress.look.pipeline import RUN_WINDOW_S, Seen, look_and_judge
from gvlstress.model import ProbeFinding, ProbeKind, ProcSample
from gvlstress.model.look import Subject
from gvlstress.probes.corewriter import Keep, keep_all
from gvlstress.probes.procfs import PROBE_WINDOW_S
from gvlstress.probes.tools import Hung
from gvlstress.supervisor.slots import Slot
from gvlstress.system.heartbeat import Board


def look_at_workers(
    workers: Mapping[int, ProcSample | None],
    due: Collection[int] | None = None,
    hung: Hung | None = None,
    host: Host = LIVE,
) -> Seen:
    """``run``'s look at its workers: each with a progress signal on its main thread (the one
    calling the target) and the /proc sample taken a window ahead; the `due` ones (all, by
    default) in focus, with their descendants and peers. The same pipeline and rules as
    ``inspect --tree`` (`gvlstress.look`); only the window adapts. `host`: what it reads
    through (`look.host`; this machine by default)."""
    subjects = [Subject(pid, pid, first, focus=due is None or pid in due) for pid, first in workers.items()]
    return look_and_judge(subjects, RUN_WINDOW_S, tree=True, adaptive=True, hung=hung, host=host)


class Prober:
    """Probes one wave's workers; their slots keep the findings and captures."""

    def __init__(
        self,
        board: Board,
        threshold: Callable[[Slot], float],
        quiet: Callable[[], contextlib.AbstractContextManager[object]],
        poll_s: float,
        cores: Keep | None = None,
        host: Host = LIVE,
    ) -> None:
        self.board = board
        self.host = host
        """What the looks read the workers through (`look.host`; this machine by default)."""
        self.cores = cores
        """``--keep-core``: where the hung workers' cores go (`capture` writes them)."""
        self.threshold = threshold
        self.quiet = quiet
        """Held while sampling and probing: chaos and the gang resume what they stopped, and stop
        nothing meanwhile."""
        self.poll_s = poll_s
        self.hung = Hung()
        """Stack tools that ran out of time in this wave: not asked again in it."""

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
                    s.presample = self.host.sample(pid)  # with nothing stopped by chaos or the gang

    def judged(self, by_pid: dict[int, Slot], due: set[int] | None = None) -> dict[int, ProbeFinding]:
        """Look at the live workers `by_pid` (the `due` ones in focus: their stacks, their
        children and peers over a window where one snapshot cannot decide; the rest from /proc
        unless a hang is found) and keep each slot's judgement and the capture that shows it."""
        with self.quiet():
            seen = look_at_workers({pid: s.presample for pid, s in by_pid.items()}, due, self.hung, self.host)
            for s in by_pid.values():
                s.presample = None  # used once
            return {pid: self._keep(by_pid[pid], seen, pid) for pid in by_pid if pid in seen.judged}

    def _keep(self, s: Slot, seen: Seen, pid: int) -> ProbeFinding:
        """A slot's judgement: its finding, its name, and the capture that shows why (the
        process it is blocked behind, when it is)."""
        j: Judgement = seen.judged[pid]
        culprit = j.behind if j.behind is not None and j.behind in seen.look.processes else pid
        finding = j.finding
        if culprit != pid:  # told from the worker's side, with the threads that show it
            kid = seen.judged[culprit].finding if culprit in seen.judged else finding
            finding = replace(kid, kind=j.finding.kind, reason=j.finding.reason, chain=j.finding.chain)
        s.capture = seen.look.processes[culprit].capture
        s.named = j.named
        s.waitfor = j.waitfor
        return finding

    def suspects(self, due: list[Slot], live: list[Slot], told: Callable[[Slot, ProbeFinding], None]) -> bool:
        """Probe quiet workers; True when a deadlock is confirmed (the wave then ends).

        Every live worker is sampled in the same /proc window as the quiet ones, so when a
        deadlock is confirmed the siblings' evidence is already there (no second window), and
        the stacks of every worker that needs them are captured in one parallel round."""
        now = time.monotonic()
        due_pids = {s.pid: s for s in due if s.pid}
        by_pid = {s.pid: s for s in live if s.pid}
        kept = {pid: (s.finding, s.capture, s.named, s.waitfor) for pid, s in due_pids.items()}
        findings = self.judged(by_pid, due=set(due_pids))
        for pid, s in due_pids.items():
            finding = findings.get(pid)
            if finding is None or finding.kind is ProbeKind.GONE:
                continue  # it exited while probed: its future says how it ended
            s.stalls += 1
            s.suspected_at = s.state.last_beat if s.state and s.state.last_beat else now
            s.next_probe_at = time.monotonic() + self.threshold(s)
            moved = self.moved(s)
            if moved and kept[pid][0] is not None:
                # it beat during this look: the look saw the stall end, not the stall, so the
                # report keeps the look that saw it stalled
                s.finding, s.capture, s.named, s.waitfor = kept[pid]
            else:
                s.finding = finding
            s.confirmed = _hung(finding, s) and not moved
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
        each is judged again with them (one look, as at the stall)."""
        todo = {pid: s for pid, s in hung.items() if s.finding is not None and s.capture is None}
        if todo:
            with self.quiet():
                subjects = [Subject(pid, pid, evidence=True) for pid in todo]
                seen = look_and_judge(
                    subjects, RUN_WINDOW_S, tree=True, adaptive=True, hung=self.hung, host=self.host
                )
            for pid, s in todo.items():
                if pid not in seen.judged or seen.judged[pid].finding.kind is ProbeKind.GONE:
                    continue
                s.finding = self._keep(s, seen, pid)
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


def _hung(f: ProbeFinding, s: Slot) -> bool:
    """A deadlock, or a spin whose cause a rule named (`judge.across.Judgement.hung`: a named
    livelock ends the wave at the stall; an unnamed one waits for the launch timeout, as real
    work might end)."""
    return Judgement(f, s.named).hung
