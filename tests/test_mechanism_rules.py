"""The four mechanisms issue 36 named (a lock whose holder died, a pool respawning dying workers,
a queue item its feeder dropped, an event loop nothing can wake), as tables of recorded shapes:
each hang next to the healthy look-alikes that differ from it in one fact (the facts:
tests/support/corpus/FACTS.md, "Issue 36"). Live versions: the catalogue entries and
`test_real_processes.test_the_look_alikes_of_the_issue_36_mechanisms_are_never_hangs`."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gvlstress.judge import names
from gvlstress.model import ProbeKind
from gvlstress.model.stacks import Local
from gvlstress.model.wiring import Churn, Endpoint, OpenFile, SharedLock
from lookshapes import EPOLL, FOREVER, LOCK, READ, SHARED_LOCK, SLEEP, Proc, Th, World, held
from test_window_rules import (
    CONN,
    IN_TASK,
    QUEUES,
    THREADING,
    W1,
    W2,
    WORKER_LOCKED,
    WORKER_READS,
    L,
    launcher,
    worker,
)

Verdict = tuple[ProbeKind, str | None]


def judged(world: World, pid: int) -> Verdict:
    j = world.judged()[pid]
    return j.finding.kind, j.named.pattern if j.named else None


# -- a lock shared between processes whose holder died ---------------------------------------

SEM = 0x7F00
TASKS = "pipe:[6]"


def sem(*mappers: int, count: int | None = 0, complete: bool = True) -> SharedLock:
    return SharedLock("0:42+0", "/dev/shm/sem.AbC123 (deleted)", mappers, count, 2, complete)


def queued(n: int) -> tuple[OpenFile, ...]:
    return (OpenFile(3, TASKS, "r", n),)


def pool_world(
    w1: tuple[tuple[str, str, int], ...] = WORKER_LOCKED,
    w2: tuple[tuple[str, str, int], ...] = WORKER_LOCKED,
    n: int = 352,
    lock: SharedLock | None = None,
    extra: tuple[Proc, ...] = (),
) -> World:
    """A Pool launcher waiting in map and two workers; `w1`/`w2` say where each worker is."""
    procs = (
        launcher(files=queued(n)),
        worker(W1, w1, files=queued(n)),
        worker(W2, w2, started=0.9, files=queued(n)),
        *extra,
    )
    waiting = [p.pid for p in procs if p.threads[0].syscall == SHARED_LOCK.format(addr=SEM)]
    lk = lock or sem(L, W1, W2)
    return World(
        procs,
        holders=held(TASKS, (L, 3, "rw"), (W1, 3, "r"), (W2, 3, "r")),
        shared={(w, SEM): lk for w in waiting},
    )


@pytest.mark.parametrize(
    ("world", "pid", "expected"),
    [
        # both workers wait on the task queue's read lock, 352 bytes of tasks wait, nobody reads:
        # the holder (a worker killed while it waited for a task) is gone; the launcher is behind them
        (pool_world(), W1, (ProbeKind.DEADLOCK, names.DEAD_LOCK_HOLDER)),
        (pool_world(), L, (ProbeKind.DEADLOCK, names.DEAD_LOCK_HOLDER)),
        # a healthy idle pool: one worker holds the lock and reads the (empty) task pipe
        (pool_world(w1=WORKER_READS, n=0), W2, (ProbeKind.IDLE, None)),
        # nothing waits in the pipe: the lock may be free in a moment
        (pool_world(n=0), W1, (ProbeKind.IDLE, None)),
        # the semaphore's value says it is free
        (pool_world(lock=sem(L, W1, W2, count=1)), W1, (ProbeKind.IDLE, None)),
        # a process whose maps could not be read may hold it
        (pool_world(lock=sem(L, W1, W2, complete=False)), W1, (ProbeKind.IDLE, None)),
        # a mapper this look did not judge may hold it
        (pool_world(lock=sem(L, W1, W2, 999)), W1, (ProbeKind.IDLE, None)),
        # a third worker runs: it maps the lock and may be about to read under it
        (
            pool_world(lock=sem(L, W1, W2, 104), extra=(Proc(104, (Th(104, None, "R", 900),), parent=L),)),
            W1,
            (ProbeKind.IDLE, None),
        ),
        # ... but one asleep in a task holds no task-queue lock (a worker reads its task, then
        # releases the lock, then runs it)
        (
            pool_world(lock=sem(L, W1, W2, 104), extra=(worker(104, IN_TASK),)),
            W1,
            (ProbeKind.DEADLOCK, names.DEAD_LOCK_HOLDER),
        ),
    ],
    ids=[
        "holder-dead",
        "launcher-behind",
        "healthy-idle-pool",
        "nothing-queued",
        "semaphore-free",
        "maps-unreadable",
        "mapper-not-looked-at",
        "a-mapper-runs",
        "a-mapper-asleep-in-a-task",
    ],
)
def test_a_lock_whose_holder_died(world: World, pid: int, expected: Verdict) -> None:
    assert judged(world, pid) == expected


# -- a pool that respawns workers that die at start --------------------------------------------


def churned(born: int, gone: int) -> dict[int, Churn]:
    return {L: Churn(5, 2.0, tuple(range(300, 300 + born)), tuple(range(299, 299 + gone)), (256,))}


def results_read(moved: int) -> Proc:
    """The launcher, its result handler having read `moved` bytes over the window."""
    base = launcher()
    return replace(
        base, threads=tuple(replace(t, moved=moved) if t.tid == L + 3 else t for t in base.threads)
    )


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        # workers come and go and the result handler reads nothing: a respawn loop
        (World((launcher(),), churn=churned(8, 8)), (ProbeKind.LIVELOCK, names.RESPAWN_LOOP)),
        # maxtasksperchild recycling: workers come and go but results arrive (the reader moved bytes)
        (World((results_read(4096), worker(W1, IN_TASK)), churn=churned(8, 8)), (ProbeKind.IDLE, None)),
        # one replacement is not a loop (a killed worker replaced once: the lost-task rule's case)
        (World((launcher(),), churn=churned(1, 1)), (ProbeKind.DEADLOCK, names.LOST_TASK)),
    ],
    ids=["respawn-loop", "recycled-workers-deliver", "one-replacement"],
)
def test_a_pool_respawning_workers_that_die(world: World, expected: Verdict) -> None:
    assert judged(world, L) == expected


# -- an item a queue's feeder thread dropped ----------------------------------------------------

C, P = 200, 201
RESULTS = "pipe:[9]"
CONSUMER_GET = (("Connection._recv", CONN, 395), ("Queue.get", QUEUES, 103), ("main", "/srv/app.py", 40))
FEEDER_IDLE = (("Condition.wait", THREADING, 327), ("Queue._feed", QUEUES, 231))


def feeder_world(obj: str = "<Result>", waiting_bytes: int = 0) -> World:
    consumer = Proc(
        C,
        (Th(C, READ.format(fd=5), fd=RESULTS, py=CONSUMER_GET),),
        files=(OpenFile(5, RESULTS, "r", waiting_bytes),),
    )
    producer = Proc(
        P,
        (
            Th(
                P,
                READ.format(fd=3),
                fd="pipe:[8]",
                py=(("Connection._recv", CONN, 395), ("Queue.get", QUEUES, 103)),
            ),
            Th(P + 1, LOCK.format(addr=0x5A0), py=FEEDER_IDLE),
        ),
        parent=C,
        locals=(Local(P + 1, "_feed", "obj", obj),),
    )
    return World((consumer, producer), holders={**held(RESULTS, (C, 5, "r"), (P, 6, "w"))})


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        (feeder_world(), (ProbeKind.DEADLOCK, names.FEEDER_DROPPED)),
        # the feeder sent its last item (obj is the pickle): the queue is merely empty
        (feeder_world(obj="<memoryview>"), (ProbeKind.IDLE, None)),
        # bytes wait in the pipe: the consumer is about to read them
        (feeder_world(waiting_bytes=64), (ProbeKind.IDLE, None)),
    ],
    ids=["dropped", "sent", "bytes-waiting"],
)
def test_an_item_the_feeder_dropped(world: World, expected: Verdict) -> None:
    assert judged(world, C) == expected


# -- an event loop nothing can wake -------------------------------------------------------------

E = 300
SELF_A, SELF_B, TCP = 500, 501, 502
BASE_EVENTS = "/usr/lib/python3.11/asyncio/base_events.py"
LOOP = (
    ("EpollSelector.select", "/usr/lib/python3.11/selectors.py", 468),
    ("BaseEventLoop._run_once", BASE_EVENTS, 1898),
    ("BaseEventLoop.run_forever", BASE_EVENTS, 607),
    ("main", "/srv/app.py", 20),
)
SELF_PIPE = {
    SELF_A: Endpoint(SELF_A, "unix", "ESTABLISHED", peer=SELF_B),
    SELF_B: Endpoint(SELF_B, "unix", "ESTABLISHED", peer=SELF_A),
}


SIGCHLD_TOO = (1 << 1) | (1 << 16)
"""SigCgt with SIGINT (Python's) and SIGCHLD (bit 17 - 1) caught."""


def loop_world(
    timeout: int = FOREVER,
    sigcgt: int = 1 << 1,
    other: Th | None = None,
    peer_pid: int = E,
    timers: str = "0",
    watched: tuple[tuple[int, str], ...] | None = ((5, f"socket:[{SELF_A}]"),),
    children: int | None = 0,
) -> World:
    threads = [
        Th(E, EPOLL.format(epfd=7, timeout=timeout), watched=watched, py=LOOP),
        *((other,) if other else ()),
    ]
    proc = Proc(
        E,
        tuple(threads),
        sigcgt=sigcgt,
        children=children,
        files=(OpenFile(5, f"socket:[{SELF_A}]", "rw"), OpenFile(6, f"socket:[{SELF_B}]", "rw")),
        locals=(Local(E, "_run_once", "sched_count", timers), Local(E, "_run_once", "timeout", "None")),
    )
    holders = {**held(f"socket:[{SELF_A}]", (E, 5, "rw")), **held(f"socket:[{SELF_B}]", (peer_pid, 6, "rw"))}
    return World((proc,), sockets=SELF_PIPE, holders=holders, tree=False)


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        # no timer, only its own wake-up pipe, one thread, no waking signal: nothing can wake it
        (loop_world(), (ProbeKind.DEADLOCK, names.LOOP_LOST_WAKEUP)),
        # a timer (600 s): a snapshot cannot tell a lost wake-up behind it from a healthy wait
        (loop_world(timeout=600_000, timers="1"), (ProbeKind.IDLE, None)),
        # a daemon that stops on SIGTERM (add_signal_handler): a signal may wake it
        (loop_world(sigcgt=(1 << 1) | (1 << 14)), (ProbeKind.IDLE, None)),
        # another thread sleeps and may call call_soon_threadsafe when it wakes
        (loop_world(other=Th(E + 1, SLEEP)), (ProbeKind.IDLE, None)),
        # the other end of the watched socket is another live process: judged by it (idle)
        (loop_world(peer_pid=E + 50), (ProbeKind.IDLE, None)),
        # its epoll set is empty (a forked child closed its copy of the loop): even the idle pool
        # thread's call_soon_threadsafe would write a wake-up pipe no longer watched
        (
            loop_world(watched=(), other=Th(E + 1, LOCK.format(addr=0xC0))),
            (ProbeKind.DEADLOCK, names.LOOP_LOST_WAKEUP),
        ),
        # the same, but a thread sleeps: it may register a descriptor or end the process
        (loop_world(watched=(), other=Th(E + 1, SLEEP)), (ProbeKind.IDLE, None)),
        # a set that could not be read is no empty set
        (loop_world(watched=None), (ProbeKind.IDLE, None)),
        # it awaits a child's exit through a SIGCHLD handler (add_signal_handler, tornado's
        # Subprocess), and the child lives: its exit will wake the loop
        (loop_world(sigcgt=SIGCHLD_TOO, children=1), (ProbeKind.IDLE, None)),
        # the same handler with no child left alive (reaped behind its back): no SIGCHLD will come
        (loop_world(sigcgt=SIGCHLD_TOO, children=0), (ProbeKind.DEADLOCK, names.LOOP_LOST_WAKEUP)),
        # children not read (a core file): a SIGCHLD may come
        (loop_world(sigcgt=SIGCHLD_TOO, children=None), (ProbeKind.IDLE, None)),
    ],
    ids=[
        "no-timer-no-waker",
        "timer",
        "catches-sigterm",
        "another-thread-sleeps",
        "peer-outside",
        "empty-epoll-set",
        "empty-set-another-thread-sleeps",
        "set-unread",
        "sigchld-handler-live-child",
        "sigchld-handler-no-child-left",
        "sigchld-handler-children-unread",
    ],
)
def test_an_event_loop_nothing_can_wake(world: World, expected: Verdict) -> None:
    assert judged(world, E) == expected


def test_a_loop_on_a_timer_says_what_a_snapshot_cannot_tell() -> None:
    j = loop_world(timeout=600_000, timers="1").judged()[E]
    assert "one look cannot tell" in j.finding.reason


# -- a quiet worker over a hang in its tree ------------------------------------------------------


@pytest.mark.parametrize(
    ("root", "expected"),
    [
        # the worker sleeps while its child is deadlocked: the stall is the child's hang
        (Th(400, SLEEP), (ProbeKind.DEADLOCK, None)),
        # the worker burns CPU no rule names (an OpenMP team's active wait): the same
        (Th(400, None, "R", 1800), (ProbeKind.DEADLOCK, None)),
    ],
    ids=["sleeps", "burns-unnamed"],
)
def test_a_quiet_worker_over_a_hang_in_its_tree_is_that_hang(root: Th, expected: Verdict) -> None:
    inversion = (
        Th(402, LOCK.format(addr=0xA0), py=(("inv", "/srv/app.py", 10),)),
        Th(403, LOCK.format(addr=0xB0), py=(("inv", "/srv/app.py", 20),)),
    )
    kid = Proc(
        401, (Th(401, LOCK.format(addr=0xC0), py=(("join", THREADING, 1100),)), *inversion), parent=400
    )
    world = World((Proc(400, (root,), progress=True), kid))
    j, child = world.judged()[400], world.judged()[401]
    assert (j.finding.kind, j.behind) == (expected[0], 401)
    assert j.named is not None
    assert child.named is not None
    assert j.named.pattern == child.named.pattern


def test_a_parent_reading_a_pipe_only_its_deadlocked_child_writes_is_behind_that_child() -> None:
    """The peer rule judges the reader (its pipe's only writer is deadlocked); the judgement
    still says whose hang it is, so `run` keeps the child's stacks, the ones that show why."""
    inversion = (
        Th(412, LOCK.format(addr=0xA0), py=(("inv", "/srv/app.py", 10),)),
        Th(413, LOCK.format(addr=0xB0), py=(("inv", "/srv/app.py", 20),)),
    )
    kid = Proc(
        411,
        (Th(411, LOCK.format(addr=0xC0), py=(("join", THREADING, 1100),)), *inversion),
        parent=410,
        pipes={RESULTS: "w"},
    )
    parent = Proc(
        410,
        (Th(410, READ.format(fd=5), fd=RESULTS, py=CONSUMER_GET),),
        files=(OpenFile(5, RESULTS, "r"),),
        progress=True,
        pipes={RESULTS: "r"},
    )
    world = World((parent, kid), holders={**held(RESULTS, (410, 5, "r"), (411, 7, "w"))})
    j = world.judged()[410]
    assert (j.finding.kind, j.behind) == (ProbeKind.DEADLOCK, 411)
    assert "blocked behind its child 411" in j.finding.reason
