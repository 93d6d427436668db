"""A multiprocessing semaphore only processes that join the waiter could post
(`judge.semcycle`), as a table: a parent that took the lock and joins the child waiting for it is
a cycle; a parent that sleeps (and may release it), one that joins another child, and a second
mapper that may post it are not."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gvlstress.judge import names
from gvlstress.judge.across import Judgement
from gvlstress.model import ProbeKind
from gvlstress.model import evidence as ev
from gvlstress.model.waitfor import End
from gvlstress.model.wiring import SharedLock
from lookshapes import LIBC, PYTHON, READ, SHARED_LOCK, SLEEP, Proc, Th, World, held

PARENT, CHILD, OTHER = 900, 901, 902
ADDR = 0x7F0058CB000
WAIT4 = "61 0x{pid:x} 0x7ffd00002000 0x0 0x0 0x0 0x0 0x7f0 0x7f1"
SEM_ACQUIRE = (f"__new_sem_wait_slow64@{LIBC}", f"_multiprocessing_SemLock_acquire_impl@{PYTHON}")
ACQUIRE = (
    ("SemLock.__enter__", "/usr/lib/python3.11/multiprocessing/synchronize.py", 95),
    ("work", "/srv/app.py", 5),
)


def world(parent: Th, mappers: tuple[int, ...] = (PARENT, CHILD), count: int = 0) -> World:
    """The child waits on the semaphore; the parent does what `parent` does."""
    child = Th(CHILD, SHARED_LOCK.format(addr=ADDR), py=ACQUIRE, native=SEM_ACQUIRE)
    procs = [Proc(PARENT, (parent,)), Proc(CHILD, (child,), parent=PARENT)]
    if OTHER in mappers:
        procs.append(Proc(OTHER, (Th(OTHER, SLEEP, left_s=5.0),), parent=PARENT))
    lock = SharedLock("0:1+0", "/dev/shm/sem.mp-x (deleted)", mappers, count=count)
    return World(tuple(procs), shared={(CHILD, ADDR): lock})


@pytest.mark.parametrize(
    ("w", "expected"),
    [
        pytest.param(
            world(Th(PARENT, WAIT4.format(pid=CHILD))),
            (ProbeKind.DEADLOCK, names.WAIT_CYCLE, End.CYCLE),
            id="the parent took the lock and joins the child that waits for it",
        ),
        pytest.param(
            world(Th(PARENT, SLEEP, left_s=5.0)),
            (ProbeKind.IDLE, None, End.OUTSIDE),
            id="look-alike: the parent sleeps, and may release it when it wakes",
        ),
        pytest.param(
            world(Th(PARENT, WAIT4.format(pid=OTHER)), mappers=(PARENT, CHILD, OTHER)),
            None,
            id="look-alike: the parent joins another child, which sleeps and maps the semaphore too",
        ),
        pytest.param(
            world(Th(PARENT, WAIT4.format(pid=CHILD)), count=1),
            None,
            id="look-alike: the semaphore reads 1, free: the wait is ending",
        ),
    ],
)
def test_a_semaphore_only_its_joiners_could_post_is_a_cycle(
    w: World, expected: tuple[ProbeKind, str | None, End] | None
) -> None:
    j = w.judged()[CHILD]
    got = (j.finding.kind, j.named.pattern if j.named else None, j.waitfor.end if j.waitfor else None)
    if expected is None:
        assert got[0] is not ProbeKind.DEADLOCK, got
    else:
        assert got == expected


def crossed(second: Th) -> World:
    """Two processes, each holding one multiprocessing Lock and waiting for the other's (the
    second does what `second` does instead when it is no lock wait)."""
    a = Th(PARENT, SHARED_LOCK.format(addr=ADDR), py=ACQUIRE, native=SEM_ACQUIRE)
    shared = {
        (PARENT, ADDR): SharedLock("0:1+0", "/dev/shm/sem.mp-a", (PARENT, CHILD), count=0),
        (CHILD, ADDR + 0x1000): SharedLock("0:2+0", "/dev/shm/sem.mp-b", (PARENT, CHILD), count=0),
    }
    return World((Proc(PARENT, (a,)), Proc(CHILD, (second,), parent=PARENT)), shared=shared)


@pytest.mark.parametrize(
    ("w", "cycle"),
    [
        pytest.param(
            crossed(Th(CHILD, SHARED_LOCK.format(addr=ADDR + 0x1000), py=ACQUIRE, native=SEM_ACQUIRE)),
            True,
            id="two processes take two multiprocessing Locks in opposite orders",
        ),
        pytest.param(
            crossed(Th(CHILD, SLEEP, left_s=5.0)),
            False,
            id="look-alike: the other mapper sleeps, and may release the lock when it wakes",
        ),
    ],
)
def test_semaphores_each_held_by_a_process_that_waits_for_the_other_are_a_cycle(
    w: World, cycle: bool
) -> None:
    assert_cycle(w.judged()[PARENT], cycle)


def assert_cycle(j: Judgement, cycle: bool) -> None:
    """A deadlock whose chain ends in a cycle, or (a look-alike) no deadlock at all."""
    if cycle:
        assert j.finding.kind is ProbeKind.DEADLOCK
        assert j.waitfor is not None
        assert j.waitfor.end is End.CYCLE
    else:
        assert j.finding.kind is not ProbeKind.DEADLOCK


QUEUE_PIPE = "pipe:[77]"


def event_and_queue(*writers: tuple[int, int, str], other: bool = False) -> World:
    """The parent waits on an Event's semaphore, which the child maps; the child reads a queue's
    pipe whose write ends `writers` hold ((pid, fd, mode); a third process sleeps when `other`)."""
    a = Th(PARENT, SHARED_LOCK.format(addr=ADDR), py=ACQUIRE, native=SEM_ACQUIRE)
    b = Th(CHILD, READ.format(fd=3), fd=QUEUE_PIPE)
    procs = [Proc(PARENT, (a,)), Proc(CHILD, (b,), parent=PARENT)]
    if other:
        procs.append(Proc(OTHER, (Th(OTHER, SLEEP, left_s=5.0),), parent=PARENT))
    lock = SharedLock("0:1+0", "/dev/shm/sem.mp-e", (PARENT, CHILD), count=0)
    return World(
        tuple(procs), shared={(PARENT, ADDR): lock}, holders=held(QUEUE_PIPE, (CHILD, 3, "r"), *writers)
    )


@pytest.mark.parametrize(
    ("w", "cycle"),
    [
        pytest.param(
            event_and_queue((PARENT, 4, "w"), (CHILD, 4, "w")),
            True,
            id="the child reads a queue only the parent fills, the parent waits for the child's Event",
        ),
        pytest.param(
            event_and_queue((PARENT, 4, "w"), (CHILD, 4, "w"), (OTHER, 4, "w"), other=True),
            False,
            id="look-alike: a third process that sleeps holds the queue's write end too",
        ),
    ],
)
def test_a_semaphore_whose_other_mapper_reads_what_only_the_waiter_writes_is_a_cycle(
    w: World, cycle: bool
) -> None:
    j = w.judged()[PARENT]
    assert_cycle(j, cycle)
    if cycle:
        assert j.named is not None
        reads = [f for f in j.named.facts if isinstance(f, ev.ReadsOnlyFrom)]
        assert [(f.pid, f.hows[0].split(" ", 1)[0], f.parties) for f in reads] == [
            (CHILD, "read()", (PARENT,))
        ]


def test_a_semaphore_every_live_mapper_waits_on_beside_a_dead_child_ends_in_that_child() -> None:
    """Two processes in opposite-order lock waits, but the parent has a child that died unreaped
    (a worker killed while it held the result queue's lock, as CPython 3.8's executor shows): the
    dead child may be the holder, so the chain ends in a gone party, not a cycle."""
    w = crossed(Th(CHILD, SHARED_LOCK.format(addr=ADDR + 0x1000), py=ACQUIRE, native=SEM_ACQUIRE))
    procs = tuple(replace(p, zombies={OTHER: 9}) if p.pid == PARENT else p for p in w.procs)
    j = replace(w, procs=procs).judged()[PARENT]
    assert j.finding.kind is ProbeKind.DEADLOCK
    assert j.named is not None
    assert j.named.pattern == names.DEAD_LOCK_HOLDER
    assert j.waitfor is not None
    assert j.waitfor.end is End.GONE
    assert f"dead child(ren) {OTHER}" in j.finding.reason
