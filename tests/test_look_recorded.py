"""The look pipeline (`gvlstress.look`) on recorded worlds (`recorded.Recorded`): which stage
decides, how long a look watches, whom it takes in and what it leaves untouched, the same
decisions a live look makes, without a process started or a second slept.

Each shape is written with `lookshapes`; the live counterparts of these tables are in
`test_real_processes.py` and `test_agreement.py` (the slow tier)."""

from __future__ import annotations

import os
from pathlib import Path

import psutil
import pytest

from gvlstress.judge import names
from gvlstress.look.host import LIVE
from gvlstress.look.pipeline import PAIR_S, STILL_PAIR_S, Seen, look_and_judge
from gvlstress.look.series import EVERY_S
from gvlstress.look.windows import LOOK_WINDOW_S, RUN_WINDOW_S
from gvlstress.model import ProbeKind
from gvlstress.model.look import Subject
from gvlstress.model.stacks import Local
from gvlstress.model.wiring import Exit, OpenFile
from gvlstress.probes import kin, procfs
from gvlstress.probes.tools import Hung
from lookshapes import LOCK, MUTEX, READ, SLEEP, TIMED, WRITE, Proc, Th, World, held, sample_at
from recorded import ME, Recorded

P = 500
M1 = 0x7F0000001000
PIPE = "pipe:[77]"
WAIT4 = "61 0xffffffffffffffff 0x7ffd5c1e0a4c 0x0 0x0 0x0 0x0 0x7f0 0x7f1"
"""wait4(-1, ...): a launcher waiting for any child."""

SELF_LOCK = Proc(P, (Th(P, MUTEX.format(addr=M1), owner=P, owner_pid=P),))
"""Its main thread locks a pthread mutex it holds: a closed wait its own stacks name."""
SPIN = Proc(P, (Th(P, None, state="R", cpu_ms=2000),))
"""Its main thread burns a core and moves nothing."""
TICKING = Proc(P, (Th(P, TIMED.format(addr=M1), vol=40),))
"""Asleep in a timed wait at every sample, yet switching (a poll loop's tick)."""
PARKED = Proc(P, (Th(P, LOCK.format(addr=M1)), Th(P + 1, SLEEP)))
"""Every thread asleep in a syscall and nothing moves."""
READER = Proc(P, (Th(P, READ.format(fd=0), fd=PIPE),))
WRITER = Proc(600, (Th(600, SLEEP),), files=(OpenFile(1, PIPE, "w", 0),))
"""Holds the write end of READER's pipe and sleeps."""
BEHIND_PIPE = World((READER, WRITER), holders=held(PIPE, (600, 1, "w")))


def look(
    world: World,
    subjects: list[Subject],
    window: float = LOOK_WINDOW_S,
    *,
    tree: bool = False,
    adaptive: bool = False,
    hung: Hung | None = None,
) -> tuple[Seen, Recorded]:
    """One look at `subjects` in `world` (``inspect`` by default), and the host it read."""
    host = Recorded(world)
    return look_and_judge(subjects, window, tree=tree, adaptive=adaptive, hung=hung, host=host), host


def run_look(world: World, *pids: int) -> tuple[Seen, Recorded]:
    """``run``'s look at a stall: a progress signal on each main thread, the window adaptive."""
    return look(world, [Subject(p, p) for p in pids], RUN_WINDOW_S, tree=True, adaptive=True)


# which stage decides, and how long the look watched


@pytest.mark.parametrize(
    ("proc", "kind", "windowed", "first_gap"),
    [
        pytest.param(
            SELF_LOCK, ProbeKind.DEADLOCK, False, STILL_PAIR_S, id="a named closed wait: the pair decides"
        ),
        pytest.param(SPIN, ProbeKind.LIVELOCK, True, PAIR_S, id="a spin: the full pair, then the window"),
        pytest.param(
            READER, ProbeKind.WAITING, True, STILL_PAIR_S, id="a wait on something outside: the window"
        ),
        pytest.param(
            PARKED, ProbeKind.WAITING, True, STILL_PAIR_S, id="asleep, nothing moves: the short pair"
        ),
    ],
)
def test_run_spends_its_window_only_where_one_snapshot_cannot_decide(
    proc: Proc, kind: ProbeKind, windowed: bool, first_gap: float
) -> None:
    seen, host = run_look(World((proc,)), P)
    assert seen.judged[P].finding.kind is kind
    assert host.naps[0] == pytest.approx(first_gap)
    if windowed:
        assert seen.look.window_s >= RUN_WINDOW_S - 0.1
        assert host.count("sample", P) >= 2 + int(RUN_WINDOW_S / EVERY_S)
    else:
        assert seen.look.window_s == 0.0
        assert host.slept == pytest.approx(STILL_PAIR_S)
        assert host.count("stacks", P) == 1  # once, to name the wait; no second look


def test_a_settled_deadlock_is_named_from_one_pair() -> None:
    seen, _ = run_look(World((SELF_LOCK,)), P)
    j = seen.judged[P]
    assert j.named is not None
    assert j.named.pattern == names.SELF_LOCK
    assert j.hung
    assert len(seen.look.processes[P].samples) == 2


def test_a_sleeper_that_moves_between_the_short_pair_gets_the_full_pair_gap() -> None:
    _, host = run_look(World((TICKING,)), P)
    assert host.naps[:2] == pytest.approx([STILL_PAIR_S, PAIR_S - STILL_PAIR_S])


def test_a_sleeper_that_does_not_move_is_paired_in_the_short_gap_only() -> None:
    _, host = run_look(World((PARKED,)), P)
    assert host.naps[0] == pytest.approx(STILL_PAIR_S)
    assert host.naps[1] != pytest.approx(PAIR_S - STILL_PAIR_S)


@pytest.mark.parametrize("proc", [SELF_LOCK, SPIN, PARKED], ids=["self-lock", "spin", "parked"])
def test_inspect_looks_at_every_process_over_the_whole_window(proc: Proc) -> None:
    seen, host = look(World((proc,)), [Subject(P)])
    assert seen.look.window_s >= LOOK_WINDOW_S - 0.1
    assert host.slept >= LOOK_WINDOW_S - 0.1
    assert host.count("stacks", P) >= 2  # the first stacks, then the Python view between samples
    assert len(seen.look.processes[P].samples) >= 2 + int(LOOK_WINDOW_S / EVERY_S) - 1


def test_a_spin_is_busy_to_inspect_and_a_livelock_under_a_progress_signal() -> None:
    inspected, _ = look(World((SPIN,)), [Subject(P)])
    run, _ = run_look(World((SPIN,)), P)
    assert inspected.judged[P].finding.kind is ProbeKind.BUSY
    assert run.judged[P].finding.kind is ProbeKind.LIVELOCK


def test_a_thread_that_burned_cpu_has_its_native_stacks_taken_again_at_the_end() -> None:
    _, host = look(World((SPIN,)), [Subject(P)])
    native = [r for r in host.reads if r.what == "stacks" and r.native]
    assert len(native) == 2
    assert native[-1].t > native[0].t


def test_a_process_that_moved_nothing_has_no_second_native_look() -> None:
    _, host = look(World((PARKED,)), [Subject(P)])
    assert len([r for r in host.reads if r.what == "stacks" and r.native]) == 1


# whom a look takes in


CHILD = Proc(601, (Th(601, None, state="R", cpu_ms=1900, moved=10**6),), parent=P)
LAUNCHER = Proc(P, (Th(P, WAIT4),))


@pytest.mark.parametrize(
    ("world", "tree", "taken"),
    [
        pytest.param(World((LAUNCHER, CHILD)), True, {601}, id="--tree: its children"),
        pytest.param(World((LAUNCHER, CHILD)), False, set(), id="without --tree: not its children"),
        pytest.param(BEHIND_PIPE, False, {600}, id="the writer of the pipe it reads"),
        pytest.param(
            World((Proc(P, (Th(P, LOCK.format(addr=M1)),), forked_from=400), Proc(400, (Th(400, SLEEP),)))),
            False,
            {400},
            id="the parent it is a fork of",
        ),
        pytest.param(
            World(
                (
                    LAUNCHER,
                    Proc(ME, (Th(ME, SLEEP),), parent=P),
                    Proc(ME + 1, (Th(ME + 1, SLEEP),), parent=ME),
                )
            ),
            True,
            set(),
            id="never the looking process nor its own children",
        ),
    ],
)
def test_a_look_takes_in_the_relatives_a_wait_is_judged_by(world: World, tree: bool, taken: set[int]) -> None:
    seen, host = look(world, [Subject(P)], tree=tree)
    assert set(seen.look.processes) - {P} == taken
    assert seen.look.subjects == (P,)
    assert host.stacked() == {P, *taken}


def test_a_wait_is_judged_by_what_the_other_end_does() -> None:
    seen, _ = look(BEHIND_PIPE, [Subject(P)])
    assert seen.judged[P].finding.kind is ProbeKind.IDLE
    assert seen.judged[600].finding.kind is ProbeKind.IDLE
    assert seen.look.wiring.holders[PIPE][0].pid == 600


def test_a_child_at_work_makes_its_launcher_wait_on_healthy_work() -> None:
    seen, _ = run_look(World((LAUNCHER, CHILD)), P)
    assert seen.judged[601].finding.kind is ProbeKind.BUSY
    assert not seen.judged[P].hung


def test_the_harness_that_forked_its_workers_is_read_as_evidence_never_judged() -> None:
    worker = Proc(P, (Th(P, LOCK.format(addr=M1)),), forked_from=ME, parent=ME)
    host = Recorded(World((worker, Proc(ME, (Th(ME, SLEEP), Th(ME + 5, LOCK.format(addr=M1)))))))
    seen = look_and_judge([Subject(P, P)], RUN_WINDOW_S, tree=True, adaptive=True, host=host)
    assert seen.look.origins == frozenset({ME})
    assert ME in seen.look.processes
    assert ME not in seen.judged
    mine = [r for r in host.reads if r.what == "stacks" and r.pid == ME]
    assert len(mine) == 1
    assert mine[0].native


def test_zombies_seen_before_and_after_the_look_are_its_evidence() -> None:
    seen, _ = look(World((Proc(P, (Th(P, SLEEP),), zombies={700: 9}),)), [Subject(P)], tree=True)
    assert seen.look.relatives.zombies[P] == {700: 9}
    assert seen.look.relatives.parents[P] == 1


def test_children_that_come_and_go_over_the_window_are_churn() -> None:
    kid = Th(0, SLEEP)
    world = World((LAUNCHER, *(Proc(k, (replace_tid(kid, k),), parent=P) for k in (610, 611, 612))))
    host = Recorded(world, gone={610: 0.5, 611: 1.2}, born={611: 0.6, 612: 1.3})
    seen = look_and_judge([Subject(P)], tree=True, host=host)
    churn = seen.look.relatives.churn[P]
    assert churn.born == (611, 612)
    assert churn.gone == (610, 611)


def test_a_pool_replacing_its_workers_is_looked_at_over_the_window_whatever_its_cpu() -> None:
    kid = Th(0, SLEEP)
    world = World((PARKED, *(Proc(k, (replace_tid(kid, k),), parent=P) for k in (610, 611))))
    host = Recorded(world, gone={610: 0.1}, born={611: 0.1})
    seen = look_and_judge([Subject(P, P)], RUN_WINDOW_S, tree=True, adaptive=True, host=host)
    assert seen.look.window_s > 0
    assert P in seen.look.relatives.churn


def replace_tid(t: Th, tid: int) -> Th:
    return Th(tid, t.syscall, t.state, t.cpu_ms, t.vol)


# what a look leaves untouched, and what it reads once


def test_a_writer_into_a_pipe_is_judged_from_proc_alone() -> None:
    writer = Proc(P, (Th(P, WRITE.format(fd=1), fd="pipe:[88]"),))
    seen, host = look(World((writer,)), [Subject(P)])
    assert P not in host.stacked()  # a ptrace stop would cut its write short
    cap = seen.look.processes[P].capture
    assert cap is not None
    assert not cap.pyspy.ok
    assert "cut that write short" in (cap.pyspy.error or "")


FEEDER = ("_feed", "/usr/lib/python3.11/multiprocessing/queues.py", 250)


def test_the_locals_a_rule_reads_are_taken_once_found() -> None:
    feeder = Th(P + 1, LOCK.format(addr=M1 + 8), py=(FEEDER,))
    found = (Local(P + 1, "_feed", "obj", "<memoryview>"),)
    _, host = look(World((Proc(P, (Th(P, LOCK.format(addr=M1)), feeder), locals=found),)), [Subject(P)])
    assert host.count("locals", P) == 1
    assert host.count("stacks", P) >= 3


def test_no_locals_are_asked_of_a_process_without_such_a_frame() -> None:
    _, host = look(World((PARKED,)), [Subject(P)])
    assert host.count("locals") == 0


def test_no_locals_when_py_spy_ran_out_of_time_earlier() -> None:
    proc = Proc(P, (Th(P, LOCK.format(addr=M1)), Th(P + 1, LOCK.format(addr=M1 + 8), py=(FEEDER,))))
    _, host = look(World((proc,)), [Subject(P)], hung=spy_hung())
    assert host.count("locals", P) == 0


def test_a_process_gone_before_the_look_is_gone_and_never_stopped() -> None:
    host = Recorded(World((SELF_LOCK,)), gone={P: 0.0})
    seen = look_and_judge([Subject(P)], host=host)
    assert seen.look.processes[P].finding.kind is ProbeKind.GONE
    assert P not in seen.judged
    assert host.stacked() == set()


def test_a_process_that_exits_during_the_window_ends_the_look_without_error() -> None:
    host = Recorded(World((SPIN,)), gone={P: 1.0})
    seen = look_and_judge([Subject(P)], host=host)
    assert seen.look.processes[P].samples[-1].at - host.start < 1.0


BYSTANDER = Proc(700, (Th(700, LOCK.format(addr=M1 + 64)),))
"""A sibling of the quiet worker, its main thread in an untimed lock wait."""


@pytest.mark.parametrize(
    ("focus", "stopped"), [(PARKED, False), (SELF_LOCK, True)], ids=["no hang", "a hang"]
)
def test_a_bystander_is_read_from_proc_alone_unless_a_deadlock_is_found(focus: Proc, stopped: bool) -> None:
    subjects = [Subject(P, P), Subject(700, 700, focus=False)]
    seen, host = look(World((focus, BYSTANDER)), subjects, RUN_WINDOW_S, tree=True, adaptive=True)
    assert (700 in host.stacked()) is stopped
    assert (seen.look.processes[700].capture is not None) is stopped
    assert seen.look.processes[700].samples


# a presample taken a window ahead (run)


def test_a_presample_that_already_shows_a_closed_wait_needs_no_gap_of_its_own() -> None:
    host = Recorded(World((SELF_LOCK,)))
    first = sample_at(SELF_LOCK, 0.0)
    host.now += PAIR_S  # the presample was taken a pair's gap ahead
    seen = look_and_judge([Subject(P, P, first)], RUN_WINDOW_S, tree=True, adaptive=True, host=host)
    assert seen.judged[P].finding.kind is ProbeKind.DEADLOCK
    assert host.naps == []  # the presample and one fresh sample are the pair


def test_a_presample_that_shows_work_is_replaced_by_a_fresh_pair() -> None:
    host = Recorded(World((SPIN,)))
    first = sample_at(SPIN, 0.0)
    seen = look_and_judge([Subject(P, P, first)], RUN_WINDOW_S, tree=True, adaptive=True, host=host)
    assert seen.look.processes[P].samples[0] is not first
    assert host.naps[0] == pytest.approx(PAIR_S)


WAITS = Proc(P, (Th(P, LOCK.format(addr=M1)),))
WOKE = Proc(P, (Th(P, None, state="R", cpu_ms=1500, moved=10**6),))
"""The same thread, its lock wait over: it works (moves bytes)."""


@pytest.mark.parametrize(
    ("woke_at", "kind", "hung", "windowed"),
    [
        pytest.param(None, ProbeKind.DEADLOCK, True, True, id="it never wakes: a hang, after the window"),
        pytest.param(0.6, ProbeKind.LIVELOCK, False, True, id="it wakes during the window: no hang"),
        pytest.param(0.1, ProbeKind.LIVELOCK, False, False, id="it wakes within the pair: work, at once"),
    ],
)
def test_a_wait_that_ends_while_the_look_watches_is_no_hang(
    woke_at: float | None, kind: ProbeKind, hung: bool, windowed: bool
) -> None:
    timeline = [(0.0, sample_at(WAITS, 0.0))]
    if woke_at is not None:
        timeline += [(woke_at + t, sample_at(WOKE, t)) for t in (0.0, 0.4, 0.8, 1.2)]
    host = Recorded(World((WAITS,)), replay={P: timeline})
    seen = look_and_judge([Subject(P, P)], RUN_WINDOW_S, tree=True, adaptive=True, host=host)
    assert seen.judged[P].finding.kind is kind
    assert seen.judged[P].hung is hung
    assert (seen.look.window_s > 0) is windowed


def spy_hung() -> Hung:
    hung = Hung()
    hung.add("py-spy")
    return hung


# the live host: this machine, read as the probes read it (this process only: nothing started)


def test_the_live_host_reads_this_process_as_the_probes_do() -> None:
    me = LIVE.me()
    assert me == os.getpid()
    now = LIVE.sample(me)
    assert now is not None
    assert any(t.tid == me for t in now.threads)
    assert LIVE.monotonic() >= now.at
    LIVE.sleep(0.0)
    assert LIVE.zombie_status(me) is None
    assert LIVE.origin(me) == (os.getppid(), psutil.Process(me).create_time())
    assert LIVE.children(me) == kin.children(me)
    assert LIVE.offspring(me, True) == [c.pid for c in psutil.Process(me).children(recursive=True)]
    assert LIVE.forked_from(me) == procfs.forked_from(me)
    assert LIVE.pipe_ends(me) == procfs.pipe_ends(me)
    assert me in LIVE.wiring([me], set()).files
    assert LIVE.shared_locks([]) == {}


def test_the_live_host_reads_a_gone_process_as_gone() -> None:
    gone = 2**22 + 1  # above any pid_max: never a process
    assert LIVE.sample(gone) is None
    assert LIVE.origin(gone) is None
    assert LIVE.offspring(gone, False) == []
    assert LIVE.children(gone) == ()


def test_a_recorded_py_spy_dump_is_the_python_view_a_look_keeps() -> None:
    # GIVEN the native fixture's main thread, recorded by py-spy waiting in rayon's latch, alone
    dump = (Path(__file__).parent / "data" / "pyspy_native_lock.json").read_text()
    pid = 13810
    host = Recorded(World((Proc(pid, (Th(pid, LOCK.format(addr=M1)),)),)), dumps={pid: dump})
    # WHEN inspect looks at it
    seen = look_and_judge([Subject(pid)], host=host)
    # THEN the dump is its raw view and its frames are the main thread's, and with no thread left
    # to set the latch the wait is judged one nothing can end
    cap = seen.look.processes[pid].capture
    assert cap is not None
    assert cap.raw["pyspy.json"] == dump
    main = cap.thread(pid)
    assert main is not None
    assert main.python is not None
    assert "wait_and_reset" in [f.name for f in main.python.frames]
    assert seen.judged[pid].finding.kind is ProbeKind.DEADLOCK


def test_what_a_watch_saw_exit_before_the_look_is_part_of_it() -> None:
    exited = (Exit(610, "python worker.py", 3.0),)
    seen = look_and_judge([Subject(P, P)], adaptive=True, exited=exited, host=Recorded(World((PARKED,))))
    assert seen.look.relatives.exited == exited
