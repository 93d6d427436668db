"""Cycles of waits across processes, through any descriptor or a child's exit (`judge.cycles`),
as tables: each shape beside its healthy look-alike (a timer armed, bytes waiting, an end held
outside the look, a thread that can still act)."""

from __future__ import annotations

import os

import pytest

from gvlstress.judge import names
from gvlstress.model import ProbeKind
from gvlstress.model import evidence as ev
from gvlstress.model.wiring import Endpoint, Holder, OpenFile, pty_master
from gvlstress.probes.wiring import holders
from lookshapes import FOREVER, POLL, READ, SLEEP, WRITE, Proc, Th, World, held

A, B = 300, 301
SA, SB = 601, 602
PIPE = "pipe:[88]"
WAIT4 = "61 0x{pid:x} 0x7ffd00002000 0x0 0x0 0x0 0x0 0x7f0 0x7f1"
SEND = (
    ("Connection._send", "/usr/lib/python3.11/multiprocessing/connection.py", 373),
    ("main", "/srv/a.py", 9),
)
RECV = (
    ("Connection._recv", "/usr/lib/python3.11/multiprocessing/connection.py", 395),
    ("main", "/srv/a.py", 9),
)


def pair(state: str = "ESTABLISHED", rqueue: int = 0) -> dict[int, Endpoint]:
    return {
        SA: Endpoint(SA, "unix", state, peer=SB, rqueue=rqueue),
        SB: Endpoint(SB, "unix", state, peer=SA, rqueue=rqueue),
    }


BOTH_HOLD = {**held(f"socket:[{SA}]", (A, 3, "rw")), **held(f"socket:[{SB}]", (B, 3, "rw"))}


def on_socket(pid: int, sock: int, syscall: str, py: tuple[tuple[str, str, int], ...], **kw: object) -> Proc:
    return Proc(pid, (Th(pid, syscall.format(fd=3), fd=f"socket:[{sock}]", py=py),), **kw)  # type: ignore[arg-type]


def verdicts(world: World) -> dict[int, tuple[ProbeKind, str | None]]:
    return {p: (j.finding.kind, j.named.pattern if j.named else None) for p, j in world.judged().items()}


POLL_FOREVER = POLL.format(n=8, timeout=FOREVER)
CYCLE = (ProbeKind.DEADLOCK, names.WAIT_CYCLE)
IDLE = (ProbeKind.IDLE, None)


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        pytest.param(
            World(
                (on_socket(A, SA, WRITE, SEND), on_socket(B, SB, WRITE, SEND, parent=A)), pair(), BOTH_HOLD
            ),
            {A: CYCLE, B: CYCLE},
            id="a socket pair, both ends sending into full buffers",
        ),
        pytest.param(
            World((on_socket(A, SA, READ, RECV), on_socket(B, SB, READ, RECV, parent=A)), pair(), BOTH_HOLD),
            {A: CYCLE, B: CYCLE},
            id="a socket pair, both ends reading",
        ),
        pytest.param(
            World(
                (on_socket(A, SA, READ, RECV), on_socket(B, SB, READ, RECV, parent=A)),
                pair(rqueue=5),
                BOTH_HOLD,
            ),
            {A: IDLE, B: IDLE},
            id="look-alike: bytes wait to be read (about to move)",
        ),
        pytest.param(
            World(
                (
                    Proc(A, (Th(A, READ.format(fd=3), fd=f"socket:[{SA}]", py=RECV), Th(A + 1, SLEEP))),
                    on_socket(B, SB, READ, RECV, parent=A),
                ),
                pair(),
                BOTH_HOLD,
            ),
            {A: IDLE, B: IDLE},
            id="look-alike: a thread of one side sleeps (a timer may act)",
        ),
        pytest.param(
            World(
                (on_socket(A, SA, READ, RECV), on_socket(B, SB, READ, RECV, parent=A)),
                {SA: Endpoint(SA, "tcp", "ESTABLISHED", "127.0.0.1:5000", "10.0.0.9:80")},
                held(f"socket:[{SA}]", (A, 3, "rw")),
            ),
            {A: IDLE},
            id="look-alike: the other end is another host's",
        ),
        pytest.param(
            World(
                (
                    Proc(A, (Th(A, WAIT4.format(pid=B)),), files=(OpenFile(4, PIPE, "w", 0),)),
                    Proc(B, (Th(B, READ.format(fd=0), fd=PIPE, comm="cat"),), parent=A),
                ),
                holders=held(PIPE, (A, 4, "w"), (B, 0, "r")),
            ),
            {A: CYCLE, B: CYCLE},
            id="a parent waits for a child that reads a pipe only the parent could write or close",
        ),
        pytest.param(
            World(
                (
                    Proc(
                        A, (Th(A, WAIT4.format(pid=B)), Th(A + 1, SLEEP)), files=(OpenFile(4, PIPE, "w", 0),)
                    ),
                    Proc(B, (Th(B, READ.format(fd=0), fd=PIPE, comm="cat"),), parent=A),
                ),
                holders=held(PIPE, (A, 4, "w"), (B, 0, "r")),
            ),
            {A: IDLE, B: IDLE},
            id="look-alike: the parent's feeder thread sleeps before it writes",
        ),
    ],
)
def test_a_cycle_of_waits_across_processes(
    world: World, expected: dict[int, tuple[ProbeKind, str | None]]
) -> None:
    got = verdicts(world)
    assert {p: got[p] for p in expected} == expected


def test_the_cycle_names_each_member_and_what_it_waits_on() -> None:
    world = World((on_socket(A, SA, WRITE, SEND), on_socket(B, SB, WRITE, SEND, parent=A)), pair(), BOTH_HOLD)
    j = world.judged()[A]
    assert j.named is not None
    steps = [f for f in j.named.facts if isinstance(f, ev.PartyWait)]
    assert {(s.pid, s.tid, s.parties) for s in steps} == {(A, A, (B,)), (B, B, (A,))}
    assert all(s.how.startswith("write() on fd 3") for s in steps)
    assert ev.CycleParked((A, B)) in j.named.facts


PTS = "/dev/pts/5"
WRITES_PTY = Proc(B, (Th(B, WRITE.format(fd=1), fd=PTS, comm="child"),), parent=A)


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        pytest.param(
            World(
                (Proc(A, (Th(A, WAIT4.format(pid=B)),)), WRITES_PTY),
                holders={**held(PTS, (B, 1, "rw")), **held(pty_master("5"), (A, 6, "rw"))},
            ),
            {A: CYCLE, B: CYCLE},
            id="pexpect: a parent waits for a child blocked writing a pty whose master only the parent holds",
        ),
        pytest.param(
            World(
                (
                    Proc(A, (Th(A, WAIT4.format(pid=B)),)),
                    WRITES_PTY,
                    Proc(900, (Th(900, POLL_FOREVER),), parent=None),
                ),
                holders={**held(PTS, (B, 1, "rw")), **held(pty_master("5"), (900, 6, "rw"))},
            ),
            {A: IDLE, B: IDLE},
            id="look-alike: the master is a terminal emulator's, polling",
        ),
    ],
)
def test_a_pty_is_wired_to_whoever_holds_its_master(
    world: World, expected: dict[int, tuple[ProbeKind, str | None]]
) -> None:
    got = verdicts(world)
    assert {p: got[p] for p in expected} == expected


def test_the_master_of_a_real_pty_is_found_by_its_tty_index() -> None:
    # GIVEN a pseudo-terminal this process opened (live /proc: fdinfo's tty-index)
    master, slave = os.openpty()
    try:
        index = os.ttyname(slave).rsplit("/", 1)[1]
        # WHEN the host's holders of its master are read
        found, _ = holders({pty_master(index)})
        # THEN this process holds it, on the fd it was given
        assert Holder(os.getpid(), master, "rw") in found[pty_master(index)]
    finally:
        os.close(master)
        os.close(slave)
