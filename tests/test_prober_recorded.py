"""``run``'s prober (`supervisor.probing`) on recorded worlds (`recorded.Recorded`): when it
samples ahead, what it confirms at a stall, what it keeps of a worker that beat during the look,
and which capture a worker blocked behind its child reports; the heartbeat board is a real one,
in this process, and no worker is started."""

from __future__ import annotations

import contextlib
import time

import pytest

from gvlstress.judge import names
from gvlstress.model import ProbeFinding, ProbeKind
from gvlstress.model.wiring import OpenFile
from gvlstress.probes.procfs import PROBE_WINDOW_S
from gvlstress.supervisor.probing import Prober, look_at_workers
from gvlstress.supervisor.slots import Slot
from gvlstress.system.heartbeat import Board, Phase
from lookshapes import LOCK, MUTEX, READ, SLEEP, Proc, Th, World, held
from recorded import Recorded

P, Q = 500, 520
M1 = 0x7F0000001000
PIPE = "pipe:[77]"
THRESHOLD_S = 5.0


def self_locked(pid: int) -> Proc:
    return Proc(pid, (Th(pid, MUTEX.format(addr=M1), owner=pid, owner_pid=pid),))


def computing(pid: int) -> Proc:
    return Proc(pid, (Th(pid, None, state="R", cpu_ms=1900, moved=10**6),))


def sleeping(pid: int) -> Proc:
    return Proc(pid, (Th(pid, SLEEP), Th(pid + 1, LOCK.format(addr=M1))))


class Wave:
    """A wave's prober over a recorded world: a real board, one slot per worker, all started."""

    def __init__(self, world: World, *pids: int, beat_at: float | None = None) -> None:
        self.board = Board.create(len(pids))
        self.slots = []
        for i, pid in enumerate(pids):
            self.board.start(i, pid)
            self.board.phase(i, Phase.ITERATING)
            self.slots.append(Slot(i, self.board.read(i)))

        def during(t: float) -> None:  # a worker's beat while the look watches
            if beat_at is not None and t >= beat_at:
                self.board.beat(0, 2, 0.1, 1)

        self.host = Recorded(world, during=during)
        self.told: list[tuple[int, ProbeKind]] = []
        self.prober = Prober(self.board, lambda s: THRESHOLD_S, contextlib.nullcontext, 0.1, host=self.host)

    def tell(self, s: Slot, f: ProbeFinding) -> None:
        self.told.append((s.slot, f.kind))

    def suspects(self, due: list[Slot]) -> bool:
        return self.prober.suspects(due, self.slots, self.tell)


def test_a_deadlocked_worker_is_confirmed_at_its_stall_with_its_siblings_from_the_same_look() -> None:
    wave = Wave(World((self_locked(P), computing(Q))), P, Q)
    stalled, sibling = wave.slots
    assert wave.suspects([stalled])
    assert stalled.confirmed
    assert stalled.stalls == 1
    assert stalled.finding is not None
    assert stalled.finding.kind is ProbeKind.DEADLOCK
    assert stalled.named is not None
    assert stalled.named.pattern == names.SELF_LOCK
    assert stalled.capture is not None
    assert stalled.capture.pid == P
    assert stalled.next_probe_at > time.monotonic()
    # a sibling burning CPU without a beat is a spin no rule named: it waits for the launch deadline
    assert sibling.finding is not None
    assert sibling.finding.kind is ProbeKind.LIVELOCK
    assert not sibling.confirmed
    assert wave.told == [(0, ProbeKind.DEADLOCK)]
    assert Q not in wave.host.stacked()  # a busy bystander is read from /proc only


def test_a_quiet_worker_that_only_waits_is_not_confirmed_and_its_siblings_keep_no_capture() -> None:
    wave = Wave(World((sleeping(P), computing(Q))), P, Q)
    stalled, sibling = wave.slots
    assert not wave.suspects([stalled])
    assert not stalled.confirmed
    assert stalled.finding is not None
    assert sibling.capture is None
    assert sibling.finding is None


def test_a_worker_that_beat_during_the_look_keeps_the_look_that_saw_it_stalled() -> None:
    wave = Wave(World((self_locked(P),)), P, beat_at=0.1)
    (stalled,) = wave.slots
    before = ProbeFinding(P, ProbeKind.WAITING, 0.5, 0.0, (), (), "seen before")
    stalled.finding = before
    assert not wave.suspects([stalled])
    assert stalled.finding is before
    assert not stalled.confirmed


def test_a_slot_that_never_started_counts_a_stall_and_is_probed_again_later() -> None:
    wave = Wave(World(()))
    never = Slot(3)
    assert not wave.prober.suspects([never], [], wave.tell)
    assert never.stalls == 1
    assert never.next_probe_at > 0


def test_a_worker_blocked_behind_its_deadlocked_child_reports_the_child_capture() -> None:
    parent = Proc(P, (Th(P, READ.format(fd=3), fd=PIPE),), pipes={PIPE: "r"})
    child = Proc(
        601, self_locked(601).threads, parent=P, pipes={PIPE: "w"}, files=(OpenFile(1, PIPE, "w", 0),)
    )
    wave = Wave(World((parent, child), holders=held(PIPE, (601, 1, "w"))), P)
    (stalled,) = wave.slots
    assert wave.suspects([stalled])
    assert stalled.confirmed
    assert stalled.capture is not None
    assert stalled.capture.pid == 601
    assert stalled.finding is not None
    assert stalled.finding.pid == 601
    assert stalled.finding.kind is ProbeKind.DEADLOCK


def test_at_the_launch_deadline_everyone_is_judged_and_the_deadlocked_confirmed() -> None:
    wave = Wave(World((self_locked(P), computing(Q))), P, Q)
    wave.prober.everyone(wave.slots)
    hung, busy = wave.slots
    assert hung.confirmed
    assert not busy.confirmed
    assert busy.finding is not None
    assert busy.finding.kind is ProbeKind.LIVELOCK


def test_the_hung_are_captured_before_the_kill_and_judged_again_with_their_stacks() -> None:
    wave = Wave(World((self_locked(P), computing(Q))), P, Q)
    hung, captured = wave.slots
    hung.finding = ProbeFinding(P, ProbeKind.DEADLOCK, 0.5, 0.0, (), (), "seen before")
    hung.confirmed = True
    captured.finding = ProbeFinding(Q, ProbeKind.BUSY, 0.5, 1.0, (), (), "seen before")
    wave.prober.capture({P: hung})
    assert hung.capture is not None
    assert hung.confirmed
    assert hung.named is not None
    assert hung.named.pattern == names.SELF_LOCK
    assert wave.host.stacked() == {P}


@pytest.mark.parametrize(
    ("quiet_s", "sampled"),
    [
        (THRESHOLD_S - PROBE_WINDOW_S / 2, True),  # due within a window: sampled ahead, siblings too
        (1.0, False),  # far from due: nothing read
    ],
)
def test_a_worker_is_sampled_one_window_before_it_is_due(quiet_s: float, sampled: bool) -> None:
    wave = Wave(World((sleeping(P), computing(Q))), P, Q)
    started = time.monotonic() - 60
    now = wave.slots[0].last_beat(started) + quiet_s
    wave.prober.presample(wave.slots, started, now)
    assert all((s.presample is not None) is sampled for s in wave.slots)


def test_a_presample_older_than_the_last_beat_is_dropped() -> None:
    wave = Wave(World((sleeping(P),)), P)
    (slot,) = wave.slots
    started = time.monotonic() - 60
    now = slot.last_beat(started) + THRESHOLD_S
    wave.prober.presample(wave.slots, started, now)
    first = slot.presample
    assert first is not None
    wave.board.beat(0, 3, 0.1, 1)
    slot.state = wave.board.read(0)
    wave.prober.presample(wave.slots, started, slot.last_beat(started) + THRESHOLD_S)
    assert slot.presample is None


def test_a_presample_is_the_first_half_of_the_pair() -> None:
    wave = Wave(World((self_locked(P),)), P)
    (slot,) = wave.slots
    started = time.monotonic() - 60
    wave.prober.presample(wave.slots, started, slot.last_beat(started) + THRESHOLD_S)
    wave.host.now += PROBE_WINDOW_S
    assert wave.suspects([slot])
    assert slot.presample is None
    assert wave.host.naps == []  # no wait of its own


def test_run_looks_at_its_workers_with_their_descendants() -> None:
    world = World((sleeping(P), Proc(601, computing(601).threads, parent=P)))
    host = Recorded(world)
    seen = look_at_workers({P: None}, host=host)
    assert set(seen.look.processes) == {P, 601}
    assert seen.look.progress == frozenset({P})


def test_a_worker_that_exited_while_probed_is_left_to_its_future() -> None:
    wave = Wave(World((self_locked(P),)), P)
    wave.host.gone[P] = 0.0
    (stalled,) = wave.slots
    assert not wave.suspects([stalled])
    assert stalled.finding is None
    assert stalled.stalls == 0
    assert wave.told == []


def test_a_hung_worker_gone_before_its_capture_keeps_what_was_found() -> None:
    wave = Wave(World((self_locked(P),)), P)
    (hung,) = wave.slots
    found = ProbeFinding(P, ProbeKind.DEADLOCK, 0.5, 0.0, (), (), "seen before")
    hung.finding, hung.confirmed = found, True
    wave.host.gone[P] = 0.0
    wave.prober.capture({P: hung})
    assert hung.finding is found
    assert hung.capture is None
    assert hung.confirmed
