"""The rules for launchers of process pools, as tables: a launcher waiting on a pool follows its
wait to the pool's result reader; a wedged executor needs all three facts (a result wait, the
manager thread in read() inside a frame, a dead unreaped child) and no one of them alone."""

from __future__ import annotations

import signal

import pytest

from gvlstress.judge import names
from gvlstress.judge.chain import POOL_RESULTS, follow
from gvlstress.judge.tree import behind_child, blocked_behind_wedge, link_pipes, wedged_launcher
from gvlstress.judge.verdict import decide
from gvlstress.model import (
    Capture,
    Frame,
    ProbeFinding,
    ProbeKind,
    PyThread,
    ThreadDelta,
    ThreadView,
    ToolRun,
    Wait,
    WaitKind,
)
from gvlstress.model import evidence as ev

PID = 100
FUTURES = "/usr/lib/python3.11/concurrent/futures/"
MP = "/usr/lib/python3.11/multiprocessing/"

RESULT_WAIT = (("wait", "threading.py"), ("result", FUTURES + "_base.py"), ("main", "app.py"))
POOL_GET = (("wait", "threading.py"), ("wait", MP + "pool.py"), ("get", MP + "pool.py"), ("main", "app.py"))
PLAIN_WAIT = (("wait", "threading.py"), ("main", "app.py"))
MANAGER_READ = (
    ("_recv", MP + "connection.py"),
    ("_recv_bytes", MP + "connection.py"),
    ("recv", MP + "connection.py"),
    ("wait_result_broken_or_wakeup", FUTURES + "process.py"),
    ("run", FUTURES + "process.py"),
)
MANAGER_POLL = (
    ("select", "selectors.py"),
    ("wait", MP + "connection.py"),
    ("wait_result_broken_or_wakeup", FUTURES + "process.py"),
    ("run", FUTURES + "process.py"),
)
POOL_RESULTS_READER = (("_recv", MP + "connection.py"), ("_handle_results", MP + "pool.py"))
SENDBACK = (
    ("__enter__", MP + "synchronize.py"),
    ("put", MP + "queues.py"),
    ("_sendback_result", FUTURES + "process.py"),
    ("_process_worker", FUTURES + "process.py"),
)

LOCK = Wait(WaitKind.LOCK, "futex", "futex 0x10 (no timeout)", addr=0x10)
READ = Wait(WaitKind.IO, "read", "read() on fd 7 (pipe:[9])", fd_target="pipe:[9]")
POLL = Wait(WaitKind.POLL, "poll", "poll()")


def thread(tid: int, wait: Wait) -> ThreadDelta:
    return ThreadDelta(tid, "python", "S", None, None, None, 0.0, 0, 0, parked=True, wait=wait)


def view(tid: int, frames: tuple[tuple[str, str], ...]) -> ThreadView:
    py = PyThread(tid, None, False, False, tuple(Frame(n, f, 1) for n, f in frames))
    return ThreadView(tid, "python", "S", None, None, None, 0.0, 0, 0, py, ())


def launcher(
    main: tuple[tuple[str, str], ...], manager: tuple[tuple[str, str], ...], manager_wait: Wait
) -> tuple[ProbeFinding, Capture]:
    threads = (thread(PID, LOCK), thread(PID + 1, manager_wait))
    f = ProbeFinding(PID, ProbeKind.STALLED, 0.5, 0.0, threads, (), "", progress_tid=PID)
    cap = Capture(
        PID,
        (view(PID, main), view(PID + 1, manager)),
        ToolRun("py-spy", True, 0.1),
        ToolRun("pystack", True, 0.1),
    )
    return f, cap


@pytest.mark.parametrize(
    ("main", "manager", "wait", "opener"),
    [
        (RESULT_WAIT, MANAGER_POLL, POLL, PID + 1),  # Future.result: the manager thread in poll()
        (RESULT_WAIT, MANAGER_READ, READ, PID + 1),  # ...or reading a frame
        (POOL_GET, POOL_RESULTS_READER, READ, PID + 1),  # AsyncResult.get: Pool's result handler
    ],
)
def test_a_launchers_wait_leads_to_its_pools_result_reader(
    main: tuple[tuple[str, str], ...], manager: tuple[tuple[str, str], ...], wait: Wait, opener: int
) -> None:
    f, cap = launcher(main, manager, wait)
    views = {t.tid: t for t in cap.threads}
    chain = follow(f.threads[0], f.threads, views, cap, PID)
    assert not chain.closed
    assert chain.opener is not None
    assert chain.opener.tid == opener
    assert POOL_RESULTS in chain.lines[0]


DEAD = {PID + 5: signal.SIGKILL}


@pytest.mark.parametrize(
    ("main", "manager", "wait", "zombies", "wedged"),
    [
        (RESULT_WAIT, MANAGER_READ, READ, DEAD, True),  # all three facts: wedged
        (RESULT_WAIT, MANAGER_READ, READ, {}, False),  # no dead child: a frame being read
        (RESULT_WAIT, MANAGER_POLL, POLL, DEAD, False),  # in its poll: it will reap the child
        (PLAIN_WAIT, MANAGER_READ, READ, DEAD, False),  # the main thread waits on something else
        (POOL_GET, POOL_RESULTS_READER, READ, DEAD, False),  # multiprocessing.Pool reaps its own
    ],
)
def test_a_wedged_executor_needs_all_three_facts(
    main: tuple[tuple[str, str], ...],
    manager: tuple[tuple[str, str], ...],
    wait: Wait,
    zombies: dict[int, int],
    wedged: bool,
) -> None:
    f, cap = launcher(main, manager, wait)
    got, named = wedged_launcher(f, cap, zombies)
    assert (named is not None) is wedged
    assert (got.kind is ProbeKind.DEADLOCK) is wedged
    if named is not None:
        assert named.pattern == names.EXECUTOR_WEDGED
        dead = [f.dead for f in named.facts if isinstance(f, ev.DeadUnreaped)]
        assert len(dead) == 1
        assert f"{PID + 5} (SIGKILL)" in dead[0]


@pytest.mark.parametrize(("frames", "blocked"), [(SENDBACK, True), (PLAIN_WAIT, False)])
def test_a_worker_is_blocked_behind_a_wedge_only_while_sending_its_result(
    frames: tuple[tuple[str, str], ...], blocked: bool
) -> None:
    f = ProbeFinding(PID, ProbeKind.STALLED, 0.5, 0.0, (thread(PID, LOCK),), (), "", progress_tid=PID)
    cap = Capture(PID, (view(PID, frames),), ToolRun("py-spy", True, 0.1), ToolRun("pystack", True, 0.1))
    got, named = blocked_behind_wedge(f, cap, 99, "105 (SIGKILL)")
    assert (named is not None) is blocked
    assert (got.kind is ProbeKind.DEADLOCK) is blocked


def _finding(pid: int, kind: ProbeKind, wait: Wait) -> ProbeFinding:
    return ProbeFinding(
        pid, kind, 0.5, 0.0, (thread(pid, wait),), (), f"{kind.value} {pid}", progress_tid=pid
    )


@pytest.mark.parametrize(
    ("wait", "child_kind", "pipes", "behind"),
    [
        (READ, ProbeKind.DEADLOCK, {7: {"pipe:[9]": "w"}}, True),  # its only writer deadlocked
        (READ, ProbeKind.WAITING, {7: {"pipe:[9]": "w"}}, False),  # the child still works
        (READ, ProbeKind.DEADLOCK, {7: {"pipe:[8]": "w"}}, False),  # the child writes another pipe
        (READ, ProbeKind.DEADLOCK, {7: {"pipe:[9]": "w"}, 8: {"pipe:[9]": "w"}}, False),  # a live writer
        (POLL, ProbeKind.DEADLOCK, {7: {"pipe:[9]": "w"}}, False),  # not blocked in a read
    ],
)
def test_a_worker_is_behind_its_child_only_when_every_writer_of_its_pipe_is_deadlocked(
    wait: Wait, child_kind: ProbeKind, pipes: dict[int, dict[str, str]], behind: bool
) -> None:
    worker = _finding(PID, ProbeKind.WAITING, wait)
    children = {7: _finding(7, child_kind, LOCK)}
    if 8 in pipes:
        children[8] = _finding(8, ProbeKind.WAITING, LOCK)
    got = behind_child(worker, children, pipes)
    assert (got is not None) is behind
    if got is not None:
        assert got == (7, ev.WritersDeadlocked(PID, "pipe:[9]", (7,)))


@pytest.mark.parametrize(
    ("waited", "child_kind", "behind"),
    [
        (7, ProbeKind.DEADLOCK, True),  # the child it waits for is deadlocked (a fork that kept a lock)
        (7, ProbeKind.WAITING, False),  # the child still works
        (-1, ProbeKind.DEADLOCK, False),  # any child: which one would end the wait is unknown
        (9, ProbeKind.DEADLOCK, False),  # waits for another child, not probed
    ],
)
def test_a_worker_in_wait4_is_behind_its_child_only_when_that_child_is_deadlocked(
    waited: int, child_kind: ProbeKind, behind: bool
) -> None:
    wait = Wait(WaitKind.CHILD, "wait4", f"wait4() for child {waited}", child=waited)
    got = behind_child(_finding(PID, ProbeKind.WAITING, wait), {7: _finding(7, child_kind, LOCK)}, {})
    assert (got is not None) is behind
    if got is not None:
        assert got == (7, ev.ChildDeadlocked(PID, 7))


CALL_QUEUE_LOCK = (
    ("__enter__", MP + "synchronize.py"),
    ("get", MP + "queues.py"),
    ("_process_worker", FUTURES + "process.py"),
)


@pytest.mark.parametrize(
    ("frames", "progress", "kind"),
    [
        (CALL_QUEUE_LOCK, False, ProbeKind.IDLE),  # inspect: an idle pool worker
        (CALL_QUEUE_LOCK, True, ProbeKind.WAITING),  # run: waits outside the process
        (SENDBACK, False, ProbeKind.IDLE),  # a lone look cannot tell the lock's holder is dead
        (PLAIN_WAIT, True, ProbeKind.DEADLOCK),  # a threading wait nobody else can end
    ],
)
def test_a_wait_on_a_lock_shared_with_other_processes_is_a_wait_outside_the_process(
    frames: tuple[tuple[str, str], ...], progress: bool, kind: ProbeKind
) -> None:
    f = ProbeFinding(PID, ProbeKind.DEADLOCK, 0.5, 0.0, (thread(PID, LOCK),), (), "", progress_tid=PID)
    cap = Capture(PID, (view(PID, frames),), ToolRun("py-spy", True, 0.1), ToolRun("pystack", True, 0.1))
    assert decide(f, cap, progress=progress).kind is kind


def _reader(pid: int, pipe: str) -> ProbeFinding:
    wait = Wait(WaitKind.IO, "read", f"read() on fd 3 ({pipe})", fd_target=pipe)
    return _finding(pid, ProbeKind.IDLE, wait)


RING = {1: _reader(1, "pipe:[10]"), 2: _reader(2, "pipe:[20]"), 3: _reader(3, "pipe:[30]")}


@pytest.mark.parametrize(
    ("findings", "pipes", "kinds"),
    [
        # 1 reads 10 (only 3 writes it), 2 reads 20 (only 1), 3 reads 30 (only 2): a ring
        (
            RING,
            {
                1: {"pipe:[10]": "r", "pipe:[20]": "w"},
                2: {"pipe:[20]": "r", "pipe:[30]": "w"},
                3: {"pipe:[30]": "r", "pipe:[10]": "w"},
            },
            {1: ProbeKind.DEADLOCK, 2: ProbeKind.DEADLOCK, 3: ProbeKind.DEADLOCK},
        ),
        # the same, but a fourth process (the parent) also holds 10's write end: no cycle
        (
            {**RING, 4: _finding(4, ProbeKind.IDLE, POLL)},
            {
                1: {"pipe:[10]": "r", "pipe:[20]": "w"},
                2: {"pipe:[20]": "r", "pipe:[30]": "w"},
                3: {"pipe:[30]": "r", "pipe:[10]": "w"},
                4: {"pipe:[10]": "w"},
            },
            {},
        ),
        # a chain, not a ring
        (
            {1: RING[1], 2: RING[2]},
            {1: {"pipe:[10]": "r", "pipe:[20]": "w"}, 2: {"pipe:[20]": "r"}, 5: {"pipe:[10]": "w"}},
            {},
        ),
        # the only writer is stopped: stalled, named
        (
            {1: RING[1], 3: _finding(3, ProbeKind.STOPPED, POLL)},
            {1: {"pipe:[10]": "r"}, 3: {"pipe:[10]": "w"}},
            {1: ProbeKind.STALLED},
        ),
    ],
)
def test_pipe_reads_linked_across_processes(
    findings: dict[int, ProbeFinding], pipes: dict[int, dict[str, str]], kinds: dict[int, ProbeKind]
) -> None:
    got = link_pipes(findings, pipes)
    assert {pid: f.kind for pid, (f, _) in got.items()} == kinds
    for pid, (_, named) in got.items():
        assert (named is not None) is (kinds[pid] is ProbeKind.DEADLOCK)
