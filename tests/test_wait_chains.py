"""Every judged process's wait-for chain and its end (`judge.ends`), as tables: each hang's end
beside its healthy look-alike's, and the words a terminal shows for each (never alike)."""

from __future__ import annotations

import os

import pytest

from gvlstress.judge import names
from gvlstress.judge.ends import END_OF
from gvlstress.model import Diagnosis, ProbeKind, Verdict
from gvlstress.model import evidence as ev
from gvlstress.model.proc import SysvSem
from gvlstress.model.waitfor import End, WaitFor
from gvlstress.model.wiring import Exit, SharedLock
from gvlstress.reporters.chain import chain_lines, end_line, fix_line
from gvlstress.supervisor.history import ExitLog
from lookshapes import (
    EPOLL,
    FOREVER,
    LIBC,
    LOCK,
    POLL,
    PYTHON,
    READ,
    SHARED_LOCK,
    SLEEP,
    WRITE,
    Proc,
    Th,
    World,
    held,
)

A, B = 300, 301
PIPE = "pipe:[88]"
FOREVER_S = 9.2e18
WAIT4 = "61 0x{pid:x} 0x7ffd00002000 0x0 0x0 0x0 0x0 0x7f0 0x7f1"
PAUSE = "34 0x0 0x0 0x0 0x0 0x0 0x0 0x7f0 0x7f1"
SIGTERM = 1 << 14
SIGALRM = 1 << 13
SIGINT = 1 << 1
RELOCK = (
    f"__lll_lock_wait@{LIBC}",
    f"pthread_mutex_lock@{LIBC}",
    "relock@/srv/relock",
    f"__libc_start_main@{LIBC}",
)
QUEUE_JOIN = (
    ("Condition.wait", "/usr/lib/python3.11/threading.py", 327),
    ("Queue.join", "/usr/lib/python3.11/queue.py", 90),
    ("main", "q.py", 32),
)
QUEUE_GET = (
    ("Condition.wait", "/usr/lib/python3.11/threading.py", 327),
    ("Queue.get", "/usr/lib/python3.11/queue.py", 171),
    ("consume", "q.py", 17),
)
LOOKS_ONLY = {names.CRASH, names.ERROR, names.NONDETERMINISTIC_ERROR}
"""Patterns of a wave's end (a worker died or raised), never of a look: no wait to follow."""


def test_every_pattern_a_look_can_name_has_an_end() -> None:
    every = {p for _, family in names.FAMILIES for p in family}
    assert every - LOOKS_ONLY - set(END_OF) == set()
    assert set(END_OF) <= every


def reader_of(pid: int, writer: Th, sigcgt: int = 1 << 1, sigblk: int = 0, sigpnd: int = 0) -> World:
    """Process A reads a pipe whose write end only B holds; B does what `writer` does."""
    return World(
        (
            Proc(A, (Th(A, READ.format(fd=3), fd=PIPE),)),
            Proc(B, (writer,), parent=1, sigcgt=sigcgt, sigblk=sigblk, sigpnd=sigpnd),
        ),
        holders=held(PIPE, (A, 3, "r"), (B, 1, "w")),
    )


def ends(world: World) -> dict[int, tuple[ProbeKind, str | None, End | None]]:
    return {
        p: (j.finding.kind, j.named.pattern if j.named else None, j.waitfor.end if j.waitfor else None)
        for p, j in world.judged().items()
    }


FOREVER_PARTY = (ProbeKind.DEADLOCK, names.FOREVER_PARTY, End.NOBODY)
IDLE_OUTSIDE = (ProbeKind.IDLE, None, End.OUTSIDE)


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        pytest.param(
            reader_of(A, Th(B, SLEEP, comm="sleep", left_s=FOREVER_S)),
            {A: FOREVER_PARTY, B: IDLE_OUTSIDE},
            id="the writer sleeps forever (sleep infinity): the reader's chain ends in nobody",
        ),
        pytest.param(
            reader_of(A, Th(B, PAUSE, comm="sleep"), sigcgt=0),
            {A: FOREVER_PARTY, B: IDLE_OUTSIDE},
            id="the writer is in pause() and catches no signal that wakes it",
        ),
        pytest.param(
            reader_of(A, Th(B, SLEEP, comm="sleep", left_s=16.0)),
            {A: IDLE_OUTSIDE, B: IDLE_OUTSIDE},
            id="look-alike: the writer's timer fires in 16 s",
        ),
        pytest.param(
            reader_of(A, Th(B, PAUSE, comm="daemon"), sigcgt=SIGTERM),
            {A: IDLE_OUTSIDE, B: IDLE_OUTSIDE},
            id="look-alike: the writer pauses for a SIGTERM it handles",
        ),
        pytest.param(
            reader_of(A, Th(B, PAUSE, comm="pinger"), sigcgt=SIGALRM, sigblk=SIGALRM),
            {A: FOREVER_PARTY, B: IDLE_OUTSIDE},
            id="the writer pauses for its alarm, which its inherited mask blocks: only a kill ends it",
        ),
        pytest.param(
            reader_of(A, Th(B, POLL.format(n=0, timeout=FOREVER), comm="waiter", watched=()), sigcgt=0),
            {A: FOREVER_PARTY, B: IDLE_OUTSIDE},
            id="the writer polls no descriptor with no timeout (select([], [], [])): as pause(), only a kill ends it",
        ),
        pytest.param(
            reader_of(A, Th(B, POLL.format(n=0, timeout=FOREVER), comm="daemon", watched=()), sigcgt=SIGTERM),
            {A: IDLE_OUTSIDE, B: IDLE_OUTSIDE},
            id="look-alike: the same poll in a process that handles SIGTERM",
        ),
        pytest.param(
            reader_of(A, Th(B, POLL.format(n=0, timeout=16000), comm="waiter", watched=()), sigcgt=0),
            {A: IDLE_OUTSIDE, B: IDLE_OUTSIDE},
            id="look-alike: a poll on no descriptor with a 16 s timeout is a sleep",
        ),
        pytest.param(
            reader_of(
                A, Th(B, PAUSE, comm="pinger"), sigcgt=SIGALRM | SIGINT, sigblk=SIGALRM, sigpnd=SIGALRM
            ),
            {A: FOREVER_PARTY, B: IDLE_OUTSIDE},
            id="a Python writer pauses for its alarm, which came and waits blocked: Ctrl-C is no wake-up",
        ),
        pytest.param(
            reader_of(A, Th(B, PAUSE, comm="pinger"), sigcgt=SIGALRM | SIGINT, sigblk=SIGALRM),
            {A: IDLE_OUTSIDE, B: IDLE_OUTSIDE},
            id="look-alike: its alarm is blocked but has not come: a Python pause() may wait for Ctrl-C",
        ),
        pytest.param(
            reader_of(
                A,
                Th(B, PAUSE, comm="daemon"),
                sigcgt=SIGALRM | SIGINT | SIGTERM,
                sigblk=SIGALRM,
                sigpnd=SIGALRM,
            ),
            {A: IDLE_OUTSIDE, B: IDLE_OUTSIDE},
            id="look-alike: its alarm came blocked, but it handles SIGTERM too, which another may send",
        ),
        pytest.param(
            reader_of(A, Th(B, SLEEP, comm="sleep", left_s=None)),
            {A: IDLE_OUTSIDE, B: IDLE_OUTSIDE},
            id="look-alike: the writer's timer could not be read (a timer is assumed)",
        ),
        pytest.param(
            World(
                (
                    Proc(A, (Th(A, WAIT4.format(pid=B)),)),
                    Proc(B, (Th(B, PAUSE, comm="sleep"),), parent=A, sigcgt=0),
                )
            ),
            {A: IDLE_OUTSIDE, B: IDLE_OUTSIDE},
            id="look-alike: an init waits for its `sleep infinity` child (by design)",
        ),
        pytest.param(
            World((Proc(A, (Th(A, LOCK.format(addr=0x55D0), native=RELOCK),)),)),
            {A: (ProbeKind.DEADLOCK, names.CLOSED_WAIT, End.NOBODY)},
            id="one thread on a futex, no other thread: a closed wait, named by its end",
        ),
        pytest.param(
            World((Proc(A, (Th(A, LOCK.format(addr=0xA0), py=QUEUE_JOIN),)),)),
            {A: (ProbeKind.DEADLOCK, names.QUEUE_JOIN, End.GONE)},
            id="Queue.join() with no other thread left: the consumers that took the items have gone",
        ),
        pytest.param(
            World(
                (
                    Proc(
                        A,
                        (
                            Th(A, LOCK.format(addr=0xA0), py=QUEUE_JOIN),
                            Th(A + 1, LOCK.format(addr=0xB0), py=QUEUE_GET),
                        ),
                    ),
                )
            ),
            {A: (ProbeKind.DEADLOCK, names.QUEUE_JOIN, End.NOBODY)},
            id="Queue.join() while a consumer, which never calls task_done(), waits for items: nobody",
        ),
        pytest.param(
            World((Proc(A, (Th(A, SLEEP, left_s=5.0),)),)),
            {A: IDLE_OUTSIDE},
            id="look-alike: a sleep with a timer",
        ),
        pytest.param(
            World((Proc(A, (Th(A, None, state="R", cpu_ms=1900, moved=10_000),)),)),
            {A: (ProbeKind.BUSY, None, End.WORKING)},
            id="a busy process: no wait, it works",
        ),
    ],
)
def test_each_chain_ends_where_its_wait_leads(
    world: World, expected: dict[int, tuple[ProbeKind, str | None, End | None]]
) -> None:
    assert ends(world) == expected


def test_a_forever_party_names_the_process_and_its_wait() -> None:
    j = reader_of(A, Th(B, SLEEP, comm="sleep", left_s=FOREVER_S)).judged()[A]
    assert j.named is not None
    assert j.waitfor is not None
    forever = [f for f in j.named.facts if isinstance(f, ev.WaitsForever)]
    assert [(f.pid, f.comm) for f in forever] == [(B, "sleep")]
    assert "forever" in j.waitfor.links[0].waits or PIPE in j.waitfor.links[0].waits


def test_a_closed_wait_with_a_waking_handler_may_end_from_outside() -> None:
    """A SIGTERM handler may end the wait (a daemon's main thread parked until told to stop)."""
    j = World((Proc(A, (Th(A, LOCK.format(addr=0x55D0), native=RELOCK),), sigcgt=SIGTERM),)).judged()[A]
    assert j.finding.kind is ProbeKind.IDLE
    assert j.waitfor is not None
    assert j.waitfor.end is End.OUTSIDE


def test_a_closed_wait_says_what_was_checked() -> None:
    j = World((Proc(A, (Th(A, LOCK.format(addr=0x55D0), native=RELOCK),)),)).judged()[A]
    assert j.waitfor is not None
    checked = " ".join(j.waitfor.checked)
    assert "no other thread exists" in checked
    assert "timers: none armed" in checked
    assert "signal handlers: none that wakes a wait" in checked
    assert "children: none" in checked


ACQUIRE = (f"PyThread_acquire_lock_timed@{PYTHON}", f"lock_PyThread_acquire_lock@{PYTHON}")
HANDLER = "/venv/lib/python3.11/site-packages/loguru/_handler.py"
REENTERED = (
    ("Handler.emit", HANDLER, 160),
    ("Logger._log", "/venv/lib/python3.11/site-packages/loguru/_logger.py", 2000),
    ("Resource.__del__", "/srv/app.py", 12),
    ("Handler.emit", HANDLER, 175),
    ("main", "/srv/app.py", 30),
)
ONCE = (("Handler.emit", HANDLER, 160), ("Resource.close", "/srv/app.py", 14), ("main", "/srv/app.py", 30))
LOOP = (
    ("Condition.wait", "/usr/lib/python3.11/threading.py", 327),
    ("Future.result", "/usr/lib/python3.11/concurrent/futures/_base.py", 451),
    ("on_event", "/srv/app.py", 12),
    ("BaseEventLoop._run_once", "/usr/lib/python3.11/asyncio/base_events.py", 1922),
    ("BaseEventLoop.run_forever", "/usr/lib/python3.11/asyncio/base_events.py", 607),
)
THREADING = "/usr/lib/python3.8/threading.py"
ENUMERATE_REENTERED = (
    ("enumerate", THREADING, 1344),
    ("Resource.__del__", "/srv/app.py", 17),
    ("enumerate", THREADING, 1345),
    ("main", "/srv/app.py", 27),
)
ENUMERATE_ONCE = (("enumerate", THREADING, 1344), ("main", "/srv/app.py", 27))
CACHE = "/venv/lib/python3.11/site-packages/cache/utils.py"
WRAPPER_REENTERED = (
    ("_Lock.__enter__", CACHE, 370),
    ("cached.<locals>.wrapped", CACHE, 450),
    ("SamplingFilter.filter", "/srv/app.py", 29),
    ("Logger.info", "/usr/lib/python3.11/logging/__init__.py", 1489),
    ("get_flag", "/srv/app.py", 19),
    ("cached.<locals>.wrapped", CACHE, 467),
    ("main", "/srv/app.py", 40),
)
WRAPPER_ONCE = (
    ("_Lock.__enter__", CACHE, 370),
    ("cached.<locals>.wrapped", CACHE, 450),
    ("get_flag", "/srv/app.py", 19),
    ("main", "/srv/app.py", 40),
)
PLUGGY = "/venv/lib/python3.11/site-packages/pluggy/_callers.py"
UNDER_PYTEST = (
    ("Condition.wait", "/usr/lib/python3.11/threading.py", 327),
    ("Queue.join", "/usr/lib/python3.11/queue.py", 90),
    ("test_deadlocks", "/srv/test_app.py", 12),
    ("pytest_pyfunc_call", "/venv/lib/python3.11/site-packages/_pytest/python.py", 159),
    ("_multicall", PLUGGY, 103),
    ("runtest", "/venv/lib/python3.11/site-packages/_pytest/python.py", 1627),
    ("_multicall", PLUGGY, 103),
    ("main", "/venv/lib/python3.11/site-packages/_pytest/config/__init__.py", 175),
)
FAR_BELOW = (
    ("Condition.wait", "/usr/lib/python3.11/threading.py", 327),
    ("LifoQueue.get", "/usr/lib/python3.11/queue.py", 171),
    ("HTTPConnectionPool._get_conn", "/venv/lib/python3.11/site-packages/urllib3/connectionpool.py", 256),
    ("fetch", "/srv/app.py", 20),
    ("step", "/srv/app.py", 30),
    ("walk", "/srv/app.py", 40),
    ("walk", "/srv/app.py", 41),
    ("main", "/srv/app.py", 9),
)
NO_LOOP = (
    ("Condition.wait", "/usr/lib/python3.11/threading.py", 327),
    ("Future.result", "/usr/lib/python3.11/concurrent/futures/_base.py", 451),
    ("main", "/srv/app.py", 12),
)


@pytest.mark.parametrize(
    ("py", "expected"),
    [
        pytest.param(
            REENTERED, (names.SELF_LOCK, End.SELF), id="a finalizer re-enters emit(), which holds the lock"
        ),
        pytest.param(ONCE, (names.CLOSED_WAIT, End.NOBODY), id="look-alike: emit() once on the stack"),
        pytest.param(
            ENUMERATE_REENTERED,
            (names.SELF_LOCK, End.SELF),
            id="a finalizer calls threading.enumerate() inside threading.enumerate(): stdlib code re-entered",
        ),
        pytest.param(
            ENUMERATE_ONCE, (names.CLOSED_WAIT, End.NOBODY), id="look-alike: threading.enumerate() once"
        ),
        pytest.param(
            WRAPPER_REENTERED,
            (names.SELF_LOCK, End.SELF),
            id="a lock class's __enter__ under a cached wrapper that a logging filter re-enters",
        ),
        pytest.param(
            WRAPPER_ONCE,
            (names.CLOSED_WAIT, End.NOBODY),
            id="look-alike: the cached wrapper once on the stack",
        ),
        pytest.param(LOOP, (names.LOOP_SELF_WAIT, End.SELF), id="the loop's own thread blocks on a future"),
        pytest.param(
            UNDER_PYTEST,
            (names.QUEUE_JOIN, End.GONE),  # its only thread: whoever was to consume has gone
            id="look-alike: Queue.join() in a test, pluggy's _multicall repeated below (not a re-entry)",
        ),
        pytest.param(
            FAR_BELOW,
            (names.LOST_WAKEUP, End.NOBODY),
            id="look-alike: a recursion far below the wait says nothing",
        ),
        pytest.param(NO_LOOP, (names.LOST_WAKEUP, End.NOBODY), id="look-alike: no loop below the wait"),
    ],
)
def test_a_self_wait_is_told_from_a_wait_on_others(
    py: tuple[tuple[str, str, int], ...], expected: tuple[str, End]
) -> None:
    native = ACQUIRE if py[0][0] != "Condition.wait" else ()
    j = World((Proc(A, (Th(A, LOCK.format(addr=0x55D0), py=py, native=native),)),)).judged()[A]
    assert j.finding.kind is ProbeKind.DEADLOCK
    assert j.waitfor is not None
    assert j.named is not None
    assert (j.named.pattern, j.waitfor.end) == expected


def test_a_hang_and_its_look_alike_never_read_alike() -> None:
    """The terminal's chain line of the forever party and of the 16 s sleeper's reader."""
    hung = reader_of(A, Th(B, SLEEP, comm="sleep", left_s=FOREVER_S)).judged()[A].waitfor
    alike = reader_of(A, Th(B, SLEEP, comm="sleep", left_s=16.0)).judged()[A].waitfor
    assert hung is not None
    assert alike is not None
    assert "ends in nobody" in end_line(hung)
    assert "may still be ended from outside" in end_line(alike)
    assert f"pid {B}" in end_line(alike)
    assert end_line(hung) != end_line(alike)
    assert chain_lines(hung)[0].startswith(f"process {A} thread {A} waits in read()")


def test_a_cycle_across_processes_ends_in_a_cycle() -> None:
    """Both ends of a pipe pair writing into full pipes only the other reads."""
    p2 = "pipe:[89]"
    world = World(
        (
            Proc(A, (Th(A, WRITE.format(fd=4), fd=PIPE),)),
            Proc(B, (Th(B, WRITE.format(fd=4), fd=p2),), parent=A),
        ),
        holders={**held(PIPE, (A, 4, "w"), (B, 3, "r")), **held(p2, (B, 4, "w"), (A, 3, "r"))},
    )
    got = ends(world)
    assert {p: e for p, (_, _, e) in got.items()} == {A: End.CYCLE, B: End.CYCLE}


def test_a_poll_wait_on_a_timer_says_a_timer() -> None:
    j = World((Proc(A, (Th(A, POLL.format(n=1, timeout=5000), watched=((3, PIPE),)),)),)).judged()[A]
    assert j.waitfor is not None
    assert j.waitfor.end is End.OUTSIDE
    assert j.waitfor.parties[0].startswith("a timer")


def test_a_retry_loop_says_one_look_cannot_tell() -> None:
    """A poll of a lock file every 50 ms (a soft file lock whose writer has gone, or one that will
    be released): the words say it retries and what would tell, never just 'a timer'."""
    j = World((Proc(A, (Th(A, SLEEP, vol=40, left_s=0.04),)),)).judged()[A]
    assert j.waitfor is not None
    assert j.waitfor.end is End.OUTSIDE
    assert j.waitfor.parties[0].startswith("a retry loop: thread 300 woke 40 times")
    one = World((Proc(A, (Th(A, SLEEP, vol=1, left_s=5.0),)),)).judged()[A]
    assert one.waitfor is not None
    assert one.waitfor.parties[0].startswith("a timer")


def test_a_watch_history_names_who_went_where_one_look_cannot() -> None:
    """A library's teardown retrying a connect (one look cannot tell a peer still starting from
    one that has gone): the exits a watch saw are in the chain's words; a single look has none."""
    eventfd = "anon_inode:[eventfd]"
    teardown = (f"poll@{LIBC}", "zmq_ctx_term@/v/zmq/libzmq.so")
    io = (f"epoll_wait@{LIBC}", "??@/v/zmq/libzmq.so")
    proc = Proc(
        A,
        (
            Th(
                A,
                POLL.format(n=1, timeout=0xFFFFFFFF),
                watched=((3, eventfd),),
                py=(("Context.term", "/v/zmq/sugar/context.py", 266),),
                native=teardown,
            ),
            Th(
                A + 1,
                EPOLL.format(epfd=7, timeout=150),
                comm="ZMQbg/IO/0",
                vol=14,
                watched=((6, eventfd),),
                native=io,
            ),
        ),
    )
    went = (Exit(B, "python server.py --port 5555", 3.1),)
    watched = World((proc,), exited=went).judged()[A]
    single = World((proc,)).judged()[A]
    assert watched.finding.kind is ProbeKind.STALLED
    assert watched.waitfor is not None
    assert single.waitfor is not None
    assert any(f"process {B} (python server.py --port 5555) exited" in p for p in watched.waitfor.parties)
    assert not any("seen by watch" in p for p in single.waitfor.parties)


def test_the_exit_log_records_a_process_that_left_the_tree_and_died() -> None:
    gone = 4_194_000  # above any pid this host hands out (pid_max is 4194304 at most)
    log = ExitLog()
    log.see((os.getpid(), gone), 0.0)
    log.see((os.getpid(),), 5.0)
    assert [(x.pid, x.at_s) for x in log.history] == [(gone, 5.0)]
    assert log.known.keys() == {os.getpid()}


SEMOP = "64 0x{semid:x} 0x7ffd00003000 0x1 0x0 0x0 0x0 0x7f0 0x7f1"


@pytest.mark.parametrize(
    ("last_alive", "value", "expected"),
    [
        pytest.param(
            False, 0, (ProbeKind.DEADLOCK, names.DEAD_LOCK_HOLDER, End.GONE), id="its taker has exited"
        ),
        pytest.param(
            True, 0, (ProbeKind.IDLE, None, End.OUTSIDE), id="look-alike: its taker lives (may post it)"
        ),
    ],
)
def test_a_system_v_semaphore_wait_is_judged_by_its_last_taker(
    last_alive: bool, value: int, expected: tuple[ProbeKind, str | None, End]
) -> None:
    sem = SysvSem(semid=7, semnum=0, value=value, last_pid=B, last_alive=last_alive)
    world = World((Proc(A, (Th(A, SEMOP.format(semid=7), sysv=sem),)),))
    assert ends(world)[A] == expected


def test_the_terminal_gives_the_fix_under_a_hang_and_nothing_under_a_healthy_wait() -> None:
    hung = Diagnosis(Verdict.DEADLOCK, "deadlock (x): y", (), hint="take the locks in one order")
    assert fix_line(hung) == "fix: take the locks in one order"
    chain = WaitFor(End.NOBODY, (), ("process 12 sleeps forever",))
    unnamed = Diagnosis(Verdict.DEADLOCK, "deadlock: y", (), waitfor=chain)
    assert fix_line(unnamed) == "fix: look at where its wait-for chain ends: process 12 sleeps forever"
    assert fix_line(Diagnosis(Verdict.IDLE, "idle: waits in poll()", (), hint="never shown")) is None


MP_WAIT = (
    ("Condition.wait", "/usr/lib/python3.11/multiprocessing/synchronize.py", 268),
    ("JoinableQueue.join", "/usr/lib/python3.11/multiprocessing/queues.py", 330),
    ("main", "/srv/app.py", 20),
)
FEEDER = (
    ("Condition.wait", "/usr/lib/python3.11/threading.py", 327),
    ("Queue._feed", "/usr/lib/python3.11/multiprocessing/queues.py", 231),
)
SEM_ACQUIRE = (f"__new_sem_wait_slow64@{LIBC}", f"_multiprocessing_SemLock_acquire_impl@{PYTHON}")


@pytest.mark.parametrize(
    ("mappers", "expected"),
    [
        pytest.param(
            (A, B),
            (ProbeKind.IDLE, None, End.OUTSIDE),
            id="look-alike: the consumer maps it, alive (task_done to come)",
        ),
        pytest.param(
            (A,),
            (ProbeKind.DEADLOCK, names.DEAD_LOCK_HOLDER, End.GONE),
            id="no other process maps it: the consumer has exited",
        ),
    ],
)
def test_a_wait_on_a_multiprocessing_condition_is_judged_by_who_maps_it(
    mappers: tuple[int, ...], expected: tuple[ProbeKind, str | None, End]
) -> None:
    """JoinableQueue.join() in a parent whose queue feeder thread is idle: the condition is a
    semaphore in /dev/shm, which another process notifies (never 'a lost wakeup' from the idle
    feeder); nobody left to map it is a gone party."""
    main = Th(A, SHARED_LOCK.format(addr=0x7F0058CB000), py=MP_WAIT, native=SEM_ACQUIRE)
    feeder = Th(A + 1, LOCK.format(addr=0x7F000002C50), py=FEEDER)
    lock = SharedLock("0:1+0", "/dev/shm/sem.mp-x (deleted)", mappers, count=0)
    world = World((Proc(A, (main, feeder)),), shared={(A, 0x7F0058CB000): lock})
    assert ends(world)[A] == expected


def test_a_healthy_wait_on_a_peer_says_what_the_peer_is_doing() -> None:
    # a slow peer and a stuck one differ in what the peer does: the words say it
    slow = reader_of(A, Th(B, SLEEP, comm="sleep", left_s=16.0)).judged()[A].waitfor
    assert slow is not None
    assert slow.end is End.OUTSIDE
    assert f"pid {B} waits in clock_nanosleep() (at most 16 s left)" in " ".join(slow.parties), slow.parties


JOIN = (
    ("Thread._wait_for_tstate_lock", "/usr/lib/python3.11/threading.py", 1139),
    ("Thread.join", "/usr/lib/python3.11/threading.py", 1119),
    ("Live.stop", "/srv/live.py", 160),
    ("main", "/srv/app.py", 21),
)
IDLE_POOL_WORKER = (
    ("_worker", "/usr/lib/python3.11/concurrent/futures/thread.py", 81),
    ("Thread.run", "/usr/lib/python3.11/threading.py", 975),
)
"""A ThreadPoolExecutor worker waiting for a task in _queue.SimpleQueue.get (C: a lock acquire
inside, no threading.py frame)."""
JOIN_313 = (
    ("Thread.join", "/usr/lib/python3.13/threading.py", 1092),
    ("Live.stop", "/srv/live.py", 160),
    ("main", "/srv/app.py", 21),
)
"""Python 3.13 joins in C (_ThreadHandle.join): Thread.join is the innermost Python frame."""
TAKES_THE_LOCK = (
    ("RefreshThread.run", "/srv/live.py", 42),
    ("Thread._bootstrap_inner", "/usr/lib/python3.11/threading.py", 1045),
)
WAITS_FOR_A_NOTIFY = (
    ("Condition.wait", "/usr/lib/python3.11/threading.py", 327),
    ("Event.wait", "/usr/lib/python3.11/threading.py", 629),
    ("Scheduler.main_loop", "/srv/sched.py", 28),
)
ELSEWHERE = (
    ("Worker.run", "/srv/work.py", 9),
    ("Thread._bootstrap_inner", "/usr/lib/python3.11/threading.py", 1045),
)


def joined(*others: tuple[tuple[str, str, int], ...], join: tuple[tuple[str, str, int], ...] = JOIN) -> World:
    """The main thread joins; each of `others` is a Python thread blocked on its own futex."""
    threads = [Th(A, LOCK.format(addr=0xA0), py=join, native=ACQUIRE)]
    for i, py in enumerate(others, 1):
        native = ACQUIRE if py[0][0] != "Condition.wait" else ()
        threads.append(Th(A + i, LOCK.format(addr=0xB0 + 0x10 * i), py=py, native=native))
    return World((Proc(A, tuple(threads)),))


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        pytest.param(
            joined(TAKES_THE_LOCK),
            (names.JOIN_BLOCKED, End.CYCLE),
            id="a join on the one thread that waits for a lock: only the joiner can hold it, a cycle",
        ),
        pytest.param(
            joined(WAITS_FOR_A_NOTIFY),
            (names.LOST_WAKEUP, End.NOBODY),
            id="look-alike: the joined thread waits for a notify (lost before it began, or the joiner's)",
        ),
        pytest.param(
            joined(TAKES_THE_LOCK, ELSEWHERE),
            (names.PY_LOCK_ORDER, End.CYCLE),
            id="two acquirers on two locks beside the join: a lock-order inversion, not the joiner's lock",
        ),
        pytest.param(
            joined(TAKES_THE_LOCK, join=JOIN_313),
            (names.JOIN_BLOCKED, End.CYCLE),
            id="the same on Python 3.13, whose join has no _wait_for_tstate_lock frame",
        ),
        pytest.param(
            joined(WAITS_FOR_A_NOTIFY, TAKES_THE_LOCK, join=JOIN_313),
            (names.NESTED_MONITOR, End.CYCLE),
            id="a lock held across a wait beside a Python 3.13 join",
        ),
        pytest.param(
            joined(WAITS_FOR_A_NOTIFY, TAKES_THE_LOCK),
            (names.NESTED_MONITOR, End.CYCLE),
            id="a join, a notify wait and one lock acquire: the lock is held across a wait, a cycle",
        ),
        pytest.param(
            World(
                (
                    Proc(
                        A,
                        (
                            Th(A, LOCK.format(addr=0xA0), py=WAITS_FOR_A_NOTIFY),
                            Th(A + 1, LOCK.format(addr=0xB0), py=TAKES_THE_LOCK, native=ACQUIRE),
                        ),
                    ),
                )
            ),
            (names.NESTED_MONITOR, End.CYCLE),
            id="no join: a notify wait and the one thread that could notify waiting for a lock",
        ),
        pytest.param(
            World(
                (
                    Proc(
                        A,
                        (
                            Th(A, LOCK.format(addr=0xA0), py=WAITS_FOR_A_NOTIFY),
                            Th(A + 1, LOCK.format(addr=0xB0), py=IDLE_POOL_WORKER, native=ACQUIRE),
                        ),
                    ),
                )
            ),
            (names.LOST_WAKEUP, End.NOBODY),
            id="look-alike: the other thread is a thread pool's idle worker in its C queue's get, no lock",
        ),
        pytest.param(
            joined(WAITS_FOR_A_NOTIFY, WAITS_FOR_A_NOTIFY),
            (names.LOST_WAKEUP, End.NOBODY),
            id="look-alike: no thread waits for a plain lock: nobody is left to notify",
        ),
    ],
)
def test_a_join_on_a_thread_only_the_joiner_can_release_is_a_cycle(
    world: World, expected: tuple[str, End]
) -> None:
    j = world.judged()[A]
    assert j.finding.kind is ProbeKind.DEADLOCK
    assert j.named is not None
    assert j.waitfor is not None
    assert (j.named.pattern, j.waitfor.end) == expected
    if j.waitfor.end is End.CYCLE and j.named.pattern == names.JOIN_BLOCKED:
        assert any(isinstance(f, ev.JoinCycle) and f.joiner == A for f in j.named.facts)


NOTIFY_ALL = (
    ("Condition.notify", "/usr/lib/python3.11/multiprocessing/synchronize.py", 297),
    ("Condition.notify_all", "/usr/lib/python3.11/multiprocessing/synchronize.py", 304),
    ("Barrier._release", "/usr/lib/python3.11/threading.py", 723),
    ("loader", "/srv/app.py", 18),
)


@pytest.mark.parametrize(
    ("exited", "shared", "expected"),
    [
        pytest.param(
            (Exit(B, "python loader.py", 2.0),),
            True,
            End.GONE,
            id="a watch saw a process exit: the party that was to post the shared semaphore has gone",
        ),
        pytest.param((), True, End.NOBODY, id="one look, no history: nobody can end it"),
        pytest.param(
            (Exit(B, "python loader.py", 2.0),),
            False,
            End.NOBODY,
            id="look-alike: a private futex, which no other process posts, says nothing of an exit",
        ),
    ],
)
def test_a_shared_semaphore_nothing_posts_ends_in_the_process_a_watch_saw_exit(
    exited: tuple[Exit, ...], shared: bool, expected: End
) -> None:
    """multiprocessing's notify_all() waits for every woken sleeper's acknowledgement on a
    semaphore in shared memory; a sleeper killed at the barrier never gives it."""
    wait = (SHARED_LOCK if shared else LOCK).format(addr=0x7F0058CB000)
    main = Th(A, wait, py=NOTIFY_ALL, native=SEM_ACQUIRE)
    feeder = Th(A + 1, LOCK.format(addr=0x7F000002C50), py=FEEDER)
    j = World((Proc(A, (main, feeder)),), exited=exited).judged()[A]
    assert j.finding.kind is ProbeKind.DEADLOCK
    assert j.waitfor is not None
    assert j.waitfor.end is expected
    if expected is End.GONE:
        assert any("seen by watch: process 301 (python loader.py) exited" in p for p in j.waitfor.parties)


SOCKETSERVER = "/usr/lib/python3.11/socketserver.py"
SHUTDOWN_IN_HANDLER = (
    ("Condition.wait", "/usr/lib/python3.11/threading.py", 327),
    ("Event.wait", "/usr/lib/python3.11/threading.py", 629),
    ("BaseServer.shutdown", SOCKETSERVER, 253),
    ("Handler.handle", "/srv/app.py", 9),
    ("BaseServer.finish_request", SOCKETSERVER, 361),
    ("BaseServer._handle_request_noblock", SOCKETSERVER, 317),
    ("BaseServer.serve_forever", SOCKETSERVER, 238),
    ("main", "/srv/app.py", 20),
)
SHUTDOWN_ELSEWHERE = (*SHUTDOWN_IN_HANDLER[:3], ("stop", "/srv/app.py", 30))
SERVING = (
    ("PollSelector.select", "/usr/lib/python3.11/selectors.py", 415),
    ("BaseServer.serve_forever", SOCKETSERVER, 233),
    ("main", "/srv/app.py", 20),
)


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        pytest.param(
            World((Proc(A, (Th(A, LOCK.format(addr=0xA0), py=SHUTDOWN_IN_HANDLER),)),)),
            (ProbeKind.DEADLOCK, End.SELF),
            id="shutdown() in a handler that serve_forever() runs: it waits for its own caller to return",
        ),
        pytest.param(
            World(
                (
                    Proc(
                        A,
                        (
                            Th(A, POLL.format(n=1, timeout=500), py=SERVING),
                            Th(A + 1, LOCK.format(addr=0xA0), py=SHUTDOWN_ELSEWHERE),
                        ),
                    ),
                )
            ),
            (ProbeKind.IDLE, End.OUTSIDE),
            id="look-alike: shutdown() from another thread while serve_forever() polls: it returns",
        ),
    ],
)
def test_a_wait_only_a_function_further_down_its_own_stack_ends_is_a_self_wait(
    world: World, expected: tuple[ProbeKind, End]
) -> None:
    j = world.judged()[A]
    assert j.waitfor is not None
    assert (j.finding.kind, j.waitfor.end) == expected
