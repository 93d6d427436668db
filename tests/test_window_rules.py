"""The rules over a look (`judge.look`: pools, peers, forks, spins) as tables of recorded shapes.

Each shape is what a real hang (or its healthy look-alike) showed on this machine: the threads'
syscalls, CPU, bytes moved and stacks over a 2 s window, the pipes and sockets between the
processes (tests/support/corpus/FACTS.md, the catalogue's triggers). Each rule is checked on the
hang and on look-alikes that differ in the one fact the rule rests on.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from gvlstress.judge import names
from gvlstress.model import ProbeKind
from gvlstress.model import evidence as ev
from gvlstress.model.wiring import Endpoint, OpenFile
from lookshapes import (
    EPOLL,
    FOREVER,
    LIBC,
    LOCK,
    POLL,
    PY_STARTED,
    PYTHON,
    READ,
    SHARED_LOCK,
    SLEEP,
    STARTED,
    TIMED,
    WRITE,
    Proc,
    Th,
    World,
    held,
)

L = 100  # the launcher, the process inspected
W1, W2, TRACKER = 101, 102, 103
POOL = "/usr/lib/python3.12/multiprocessing/pool.py"
THREADING = "/usr/lib/python3.12/threading.py"
QUEUES = "/usr/lib/python3.12/multiprocessing/queues.py"
CONN = "/usr/lib/python3.12/multiprocessing/connection.py"
SYNC = "/usr/lib/python3.12/multiprocessing/synchronize.py"
BASE = "/usr/lib/python3.12/concurrent/futures/_base.py"
PROCESS = "/usr/lib/python3.12/concurrent/futures/process.py"
APP = "/srv/app.py"

MAP_WAIT = (
    ("Condition.wait", THREADING, 355),
    ("Event.wait", THREADING, 655),
    ("ApplyResult.wait", POOL, 765),
    ("ApplyResult.get", POOL, 768),
    ("Pool.map", POOL, 367),
    ("main", APP, 82),
)
HANDLE_WORKERS = (
    ("wait", CONN, 1135),
    ("Pool._wait_for_updates", POOL, 502),
    ("Pool._handle_workers", POOL, 522),
)
HANDLE_TASKS = (("Pool._handle_tasks", POOL, 531), ("Thread.run", THREADING, 1010))
HANDLE_RESULTS = (
    ("Connection._recv", CONN, 395),
    ("_ConnectionBase.recv", CONN, 250),
    ("Pool._handle_results", POOL, 579),
)
WORKER_READS = (("Connection._recv", CONN, 395), ("SimpleQueue.get", QUEUES, 387), ("worker", POOL, 114))
WORKER_LOCKED = (("SemLock.__enter__", SYNC, 95), ("SimpleQueue.get", QUEUES, 386), ("worker", POOL, 114))
IN_TASK = (("task", APP, 12), ("mapstar", POOL, 48), ("worker", POOL, 125))
CALLBACK_APPLIES = (
    ("Condition.wait", THREADING, 355),
    ("Event.wait", THREADING, 655),
    ("ApplyResult.wait", POOL, 765),
    ("ApplyResult.get", POOL, 768),
    ("Pool.apply", POOL, 360),
    ("on_done", APP, 6),
    ("ApplyResult._set", POOL, 779),
    ("Pool._handle_results", POOL, 595),
)
"""The result handler inside an apply_async callback that calls pool.apply on the same pool."""


def launcher(
    *,
    results: bool = True,
    main: tuple[tuple[str, str, int], ...] = MAP_WAIT,
    main_syscall: str = LOCK.format(addr=0x55F0),
    busy_handler: bool = False,
    callback: str | None = None,
    **kw: object,
) -> Proc:
    """A multiprocessing.Pool launcher waiting in map (its three pool threads beside it); with
    `callback` (its syscall line), the result handler runs a callback that calls pool.apply."""
    threads = [
        Th(L, main_syscall, py=main),
        Th(
            L + 1,
            None if busy_handler else POLL.format(n=4, timeout=FOREVER),
            state="R" if busy_handler else "S",
            cpu_ms=1800 if busy_handler else 0,
            py=HANDLE_WORKERS,
        ),
        Th(L + 2, LOCK.format(addr=0x55F4), py=HANDLE_TASKS),
    ]
    if results:
        threads.append(Th(L + 3, READ.format(fd=5), fd="pipe:[7]", py=HANDLE_RESULTS))
    if callback is not None:
        threads.append(Th(L + 3, callback, py=CALLBACK_APPLIES))
    return Proc(L, tuple(threads), **kw)  # type: ignore[arg-type]


def worker(
    pid: int,
    py: tuple[tuple[str, str, int], ...] = WORKER_READS,
    started: float = 0.1,
    parent: int = L,
    **kw: object,
) -> Proc:
    """A Pool worker: by default between tasks, reading the task pipe (a child of the launcher,
    or of its forkserver)."""
    if py is WORKER_LOCKED:
        th = Th(pid, SHARED_LOCK.format(addr=0x7F00), py=py)
    elif py is IN_TASK:
        th = Th(pid, SLEEP, py=py)
    else:
        th = Th(pid, READ.format(fd=3), fd="pipe:[6]", py=py)
    return Proc(pid, (th,), parent=parent, started=started, **kw)  # type: ignore[arg-type]


MP_PROCESS = "/usr/lib/python3.12/multiprocessing/process.py"
SPAWN = "/usr/lib/python3.12/multiprocessing/spawn.py"
FORKSERVER = "/usr/lib/python3.12/multiprocessing/forkserver.py"
RUNPY = "/usr/lib/python3.12/runpy.py"
SERVED = (
    ("BaseProcess.run", MP_PROCESS, 108),
    ("BaseProcess._bootstrap", MP_PROCESS, 314),
    ("_main", SPAWN, 135),
    ("_serve_one", FORKSERVER, 313),
    ("main", FORKSERVER, 274),
    ("<module>", "<string>", 1),
)
"""Below a forkserver's worker: forked by the forkserver, bootstrapped as spawn's would be."""
IMPORTING_MAIN = (
    ("<module>", APP, 3),
    ("_run_code", RUNPY, 88),
    ("run_path", RUNPY, 291),
    ("_fixup_main_from_path", SPAWN, 287),
    ("prepare", SPAWN, 243),
    ("_main", SPAWN, 131),
    ("spawn_main", SPAWN, 122),
    ("<module>", "<string>", 1),
)
"""A spawned worker still importing the main module (its top level sleeps, downloads, imports)."""
FS = 690
"""The launcher's forkserver, parent of its workers."""


def forkserver(py: tuple[tuple[str, str, int], ...] = (("main", FORKSERVER, 258),)) -> Proc:
    """A forkserver waiting for requests (or still importing the main module)."""
    th = Th(FS, EPOLL.format(epfd=5, timeout=FOREVER) if len(py) == 1 else SLEEP, py=py)
    return Proc(FS, (th,), parent=L, started=0.05)


TASK_PIPE = OpenFile(3, "pipe:[6]", "r", 0)
RESULT_PIPE = OpenFile(5, "pipe:[7]", "r", 0)


def pool(*procs: Proc, tree: bool = True) -> World:
    return World(procs, tree=tree)


def named(world: World, pid: int = L) -> tuple[ProbeKind, str | None]:
    j = world.judged()[pid]
    f, m = j.finding, j.named
    return f.kind, m.pattern if m else None


LOST = (ProbeKind.DEADLOCK, names.LOST_TASK)
DEAD_HANDLER = (ProbeKind.DEADLOCK, names.LOST_RESULTS)


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        # bpo-22393: a worker killed mid-task, replaced (started later); both wait for a task
        (pool(launcher(), worker(W1, WORKER_LOCKED), worker(W2, started=0.7)), LOST),
        # the same with every worker in read(): the replacement is named from its start time
        (pool(launcher(), worker(W1), worker(W2, started=0.1)), LOST),
        # a worker inside its task (sleeping, computing): its result may still come
        (pool(launcher(), worker(W1, IN_TASK), worker(W2)), (ProbeKind.IDLE, None)),
        # bytes in flight between the launcher and a worker: a task on its way
        (
            pool(
                launcher(files=(OpenFile(4, "pipe:[6]", "w", 378),)),
                worker(W1, files=(OpenFile(3, "pipe:[6]", "r", 378),)),
                worker(W2),
            ),
            (ProbeKind.IDLE, None),
        ),
        # bytes in a pipe only the launcher holds (its own stderr): not between them
        (pool(launcher(files=(OpenFile(2, "pipe:[9]", "w", 4096),)), worker(W1), worker(W2)), LOST),
        # the launcher does something else (between tasks): nothing is waited for
        (
            pool(launcher(main=(("main", APP, 5),), main_syscall=SLEEP), worker(W1), worker(W2)),
            (ProbeKind.IDLE, None),
        ),
        # without the workers in the look (no --tree) the launcher alone cannot tell
        (pool(launcher(), worker(W1), worker(W2), tree=False), (ProbeKind.IDLE, None)),
        # bpo-35311: the result handler died; nothing delivers results (tree or not)
        (pool(launcher(results=False), worker(W1), worker(W2)), DEAD_HANDLER),
        (pool(launcher(results=False), tree=False), DEAD_HANDLER),
        # ... and its worker-handler thread spins on the result pipe nobody reads: a livelock
        (
            pool(launcher(results=False, busy_handler=True), worker(W1)),
            (ProbeKind.LIVELOCK, names.LOST_RESULTS),
        ),
        # a callback on the result handler waits for a result of its own pool: it waits for itself
        (
            pool(launcher(results=False, callback=LOCK.format(addr=0x7E00)), worker(W1), tree=False),
            (ProbeKind.DEADLOCK, names.RESULTS_SELF_WAIT),
        ),
        # ... while the worker handler spins on the results it does not read (3.11's Pool)
        (
            pool(launcher(results=False, busy_handler=True, callback=LOCK.format(addr=0x7E00)), worker(W1)),
            (ProbeKind.LIVELOCK, names.RESULTS_SELF_WAIT),
        ),
        # look-alike: the callback's wait is timed (apply_async(...).get(timeout)): it returns
        (
            pool(launcher(results=False, callback=TIMED.format(addr=0x7E00)), worker(W1, IN_TASK)),
            (ProbeKind.IDLE, None),
        ),
        # forkserver (Python 3.14's default on Linux): the workers are the forkserver's children;
        # one inside its task, its result may still come (was "no worker left": a false alarm)
        (
            pool(
                launcher(),
                forkserver(),
                worker(W1, IN_TASK + SERVED, parent=FS),
                worker(W2, WORKER_READS + SERVED, parent=FS),
            ),
            (ProbeKind.IDLE, None),
        ),
        # ... a worker killed mid-task and replaced: both wait for a task, found below the forkserver
        (
            pool(
                launcher(),
                forkserver(),
                worker(W1, WORKER_READS + SERVED, parent=FS),
                worker(W2, WORKER_READS + SERVED, started=0.7, parent=FS),
            ),
            LOST,
        ),
        # spawn: the workers still import the main module (slowly): the tasks wait for them
        (
            pool(launcher(), worker(W1, IMPORTING_MAIN), worker(W2, IMPORTING_MAIN)),
            (ProbeKind.IDLE, None),
        ),
        # forkserver: the forkserver itself still imports the main module, no worker forked yet
        (
            pool(
                launcher(), forkserver((("sleep", APP, 3), *IMPORTING_MAIN[1:4], ("main", FORKSERVER, 190)))
            ),
            (ProbeKind.IDLE, None),
        ),
    ],
    ids=[
        "killed-worker-replaced",
        "exit-in-task",
        "worker-in-task",
        "task-in-flight",
        "stderr-bytes-not-between",
        "between-tasks",
        "no-tree",
        "result-handler-died",
        "result-handler-died-no-tree",
        "result-handler-died-spin",
        "callback-applies-on-own-pool",
        "callback-applies-while-handler-spins",
        "callback-timed-wait",
        "forkserver-worker-in-task",
        "forkserver-worker-replaced",
        "spawn-workers-importing-main",
        "forkserver-importing-main",
    ],
)
def test_pool_accounting(world: World, expected: tuple[ProbeKind, str | None]) -> None:
    assert named(world) == expected


def test_a_lost_task_names_the_replacement_worker() -> None:
    j = pool(launcher(), worker(W1), worker(W2, started=0.8)).judged()[L]
    _, m = j.finding, j.named
    assert m is not None
    replaced = [f for f in m.facts if isinstance(f, ev.WorkersReplaced)]
    assert [(f.pids, round(f.after_s, 2)) for f in replaced] == [((W2,), 0.7)]


def test_a_lost_task_under_a_forkserver_names_the_workers_below_it() -> None:
    world = pool(
        launcher(),
        forkserver(),
        worker(W1, WORKER_READS + SERVED, parent=FS),
        worker(W2, WORKER_READS + SERVED, started=0.7, parent=FS),
    )
    m = world.judged()[L].named
    assert m is not None
    assert [f.workers for f in m.facts if isinstance(f, ev.WorkersWaitTask)] == [(W1, W2)]
    assert m.end is not None
    assert m.end.value == "dead or gone party"


EXEC_RESULT = (("Condition.wait", THREADING, 355), ("Future.result", BASE, 451), ("main", APP, 99))
MANAGER = (
    ("wait", CONN, 1135),
    ("_ExecutorManagerThread.wait_result_broken_or_wakeup", PROCESS, 426),
    ("_ExecutorManagerThread.run", PROCESS, 353),
)
FEEDER = (("Condition.wait", THREADING, 355), ("Queue._feed", QUEUES, 246))
SHUTDOWN_JOIN = (
    ("Thread._wait_for_tstate_lock", THREADING, 1153),
    ("Thread.join", THREADING, 1133),
    ("ProcessPoolExecutor.shutdown", PROCESS, 851),
    ("Executor.__exit__", BASE, 649),
)
JOIN_313 = (("Thread.join", THREADING, 1092), ("ProcessPoolExecutor.shutdown", PROCESS, 854))


MANAGER_36 = (
    ("wait", CONN, 911),
    ("_queue_management_worker", PROCESS, 270),
    ("Thread.run", THREADING, 864),
)
"""CPython 3.6-3.8's manager thread: a function, not yet the _ExecutorManagerThread class."""
MANAGER_IN_CALLBACK = (
    ("Condition.wait", THREADING, 355),
    ("Future.result", BASE, 451),
    ("on_done", APP, 14),
    ("Future._invoke_callbacks", BASE, 340),
    ("Future.set_result", BASE, 549),
    ("_ExecutorManagerThread.process_result_item", PROCESS, 455),
    ("_ExecutorManagerThread.run", PROCESS, 362),
)
"""The manager thread inside a done-callback that waits for another future of its executor."""


def executor(
    main: tuple[tuple[str, str, int], ...],
    manager: bool = True,
    manager_py: tuple[tuple[str, str, int], ...] = MANAGER,
    manager_wait: str | None = None,
) -> Proc:
    threads = [Th(L, LOCK.format(addr=0x55E0), py=main), Th(L + 2, LOCK.format(addr=0x7F10), py=FEEDER)]
    if manager:
        syscall = manager_wait.format(addr=0x7E10) if manager_wait else POLL.format(n=3, timeout=FOREVER)
        threads.insert(1, Th(L + 1, syscall, py=manager_py))
    return Proc(L, tuple(threads))


THREAD = "/usr/lib/python3.12/concurrent/futures/thread.py"
THREAD_POOL = Proc(
    L,
    (
        Th(L, LOCK.format(addr=0x55E0), py=EXEC_RESULT),
        Th(
            L + 1,
            LOCK.format(addr=0x55E8),
            py=(
                ("Condition.wait", THREADING, 355),
                ("Future.result", BASE, 451),
                ("inner", APP, 7),
                ("_WorkItem.run", THREAD, 58),
                ("_worker", THREAD, 83),
            ),
        ),
    ),
)
TRACKER_PROC = Proc(
    TRACKER,
    (Th(TRACKER, READ.format(fd=7), fd="pipe:[8]", py=(("main", "/x/resource_tracker.py", 227),)),),
    parent=L,
)
PPE_WORKER = Proc(
    W1,
    (
        Th(
            W1,
            READ.format(fd=3),
            fd="pipe:[6]",
            py=(
                ("Connection._recv", CONN, 395),
                ("Queue.get", QUEUES, 103),
                ("_process_worker", PROCESS, 240),
            ),
        ),
    ),
    parent=L,
)
PPE_WORKER_SLEEPS = Proc(
    W1, (Th(W1, SLEEP, py=(("task", APP, 3), ("_process_worker", PROCESS, 263))),), parent=L
)


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        # gh-115634: max_tasks_per_child retired every worker and none was started again
        (World((executor(EXEC_RESULT), TRACKER_PROC)), LOST),
        # gh-119592: the manager thread died (shutdown(wait=False)): no result can arrive
        (World((executor(EXEC_RESULT, manager=False), TRACKER_PROC)), DEAD_HANDLER),
        # healthy: a worker runs (sleeps in) its task
        (World((executor(EXEC_RESULT), PPE_WORKER_SLEEPS)), (ProbeKind.IDLE, None)),
        # the same on CPython 3.6 (blind corpus 2's look-alike 10, once called "manager died")
        (World((executor(EXEC_RESULT, manager_py=MANAGER_36), PPE_WORKER_SLEEPS)), (ProbeKind.IDLE, None)),
        # the reported false alarm: shutdown(wait=True) joins the manager thread while a worker
        # sleeps in its task; the manager polls its pipes and the workers' sentinels
        (World((executor(SHUTDOWN_JOIN), PPE_WORKER_SLEEPS)), (ProbeKind.IDLE, None)),
        (World((executor(JOIN_313), PPE_WORKER_SLEEPS)), (ProbeKind.IDLE, None)),
        (World((executor(SHUTDOWN_JOIN),), tree=False), (ProbeKind.IDLE, None)),
        # a ThreadPoolExecutor's task waits on a future of its own one-worker pool: no process
        # pool, no manager thread to miss (the thread pool's own shape names it)
        (World((THREAD_POOL,), tree=False), (ProbeKind.DEADLOCK, names.THREAD_POOL_EXHAUSTION)),
        # a done-callback on the manager thread waits for another future of the same executor
        (
            World((executor(EXEC_RESULT, manager_py=MANAGER_IN_CALLBACK, manager_wait=LOCK), PPE_WORKER)),
            (ProbeKind.DEADLOCK, names.RESULTS_SELF_WAIT),
        ),
        # look-alike: the same callback with a timeout on its wait
        (
            World(
                (executor(EXEC_RESULT, manager_py=MANAGER_IN_CALLBACK, manager_wait=TIMED), PPE_WORKER_SLEEPS)
            ),
            (ProbeKind.IDLE, None),
        ),
        # look-alike: the callback waits for a future a thread pool's worker is computing
        (
            World(
                (
                    Proc(
                        L,
                        (
                            *executor(EXEC_RESULT, manager_py=MANAGER_IN_CALLBACK, manager_wait=LOCK).threads,
                            Th(
                                L + 5,
                                None,
                                state="R",
                                cpu_ms=1900,
                                py=(("work", APP, 3), ("_worker", THREAD, 83)),
                            ),
                        ),
                    ),
                    PPE_WORKER,
                )
            ),
            (ProbeKind.BUSY, None),  # its thread pool computes: neither a self-wait nor a lost task
        ),
    ],
    ids=[
        "max-tasks-no-worker",
        "manager-died",
        "worker-in-task",
        "worker-in-task-py3.6",
        "shutdown-join",
        "shutdown-join-3.13",
        "shutdown-alone",
        "thread-pool-nested",
        "done-callback-waits-on-own-executor",
        "done-callback-timed-wait",
        "done-callback-waits-on-a-thread-pool",
    ],
)
def test_executor_accounting(world: World, expected: tuple[ProbeKind, str | None]) -> None:
    assert named(world) == expected


# Peers: a unix socket whose other end only the waiting process holds (the worker died), a pipe
# read by nobody else, a peer that is stopped, alive, deadlocked, or a listening socket.
RECV = (("Connection._recv", CONN, 395), ("_ConnectionBase.recv", CONN, 250), ("main", APP, 20))
BARE_READ = (("main", APP, 24),)
SOCK_A, SOCK_B = 501, 502


def unix(a: int, b: int | None, state: str = "ESTABLISHED") -> dict[int, Endpoint]:
    out = {a: Endpoint(a, "unix", state, peer=b)}
    if b is not None:
        out[b] = Endpoint(b, "unix", state, peer=a)
    return out


def waiter(
    *,
    syscall: str = READ.format(fd=3),
    fd: str = f"socket:[{SOCK_A}]",
    extra: tuple[Th, ...] = (),
    py: tuple[tuple[str, str, int], ...] = (),
    **kw: object,
) -> Proc:
    return Proc(L, (Th(L, syscall, fd=fd, py=py or RECV), *extra), **kw)  # type: ignore[arg-type]


SELF_HELD = {**held(f"socket:[{SOCK_A}]", (L, 3, "rw")), **held(f"socket:[{SOCK_B}]", (L, 4, "rw"))}
OTHER_HELD = {**held(f"socket:[{SOCK_A}]", (L, 3, "rw")), **held(f"socket:[{SOCK_B}]", (200, 4, "rw"))}
PEER_SLEEPS = Proc(200, (Th(200, SLEEP, py=(("main", "/srv/peer.py", 9),)),))
PEER_STOPPED = Proc(200, (Th(200, SLEEP, state="T"),))
ACQUIRE = (f"PyThread_acquire_lock_timed@{PYTHON}", f"lock_PyThread_acquire_lock@{PYTHON}")
PEER_LOCKED = Proc(
    200,
    (
        Th(200, LOCK.format(addr=0x10), py=(("main", "/srv/peer.py", 9),), native=ACQUIRE),
        Th(201, LOCK.format(addr=0x20), py=(("work", "/srv/peer.py", 20),), native=(*ACQUIRE, *PY_STARTED)),
    ),
)
GONE = (ProbeKind.DEADLOCK, names.PEER_GONE)


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        # multiprocessing docs: the worker died, the parent kept the worker's end: no EOF ever
        (World((waiter(zombies={W1: 256}),), unix(SOCK_A, SOCK_B), SELF_HELD), GONE),
        # reaped, but the wait is in multiprocessing's Connection: made for another process
        (World((waiter(),), unix(SOCK_A, SOCK_B), SELF_HELD), GONE),
        # the same wait in a bare os.read() with no dead child and no teardown: a self-pipe a
        # signal handler may write (nothing says another process was to answer): idle
        (World((waiter(py=BARE_READ),), unix(SOCK_A, SOCK_B), SELF_HELD), (ProbeKind.IDLE, None)),
        # ... also beside Python threads idle by design (a thread pool waiting for tasks)
        (
            World(
                (
                    waiter(
                        py=BARE_READ,
                        extra=(Th(L + 1, LOCK.format(addr=0x30), py=(("_worker", "/x/thread.py", 81),)),),
                    ),
                ),
                unix(SOCK_A, SOCK_B),
                SELF_HELD,
            ),
            (ProbeKind.IDLE, None),
        ),
        # another thread of the process is running: it may still write there (busy, not gone)
        (
            World(
                (waiter(extra=(Th(L + 1, None, state="R", cpu_ms=1500),)),), unix(SOCK_A, SOCK_B), SELF_HELD
            ),
            (ProbeKind.BUSY, None),
        ),
        # another thread sleeps (a timer): it ends by itself and may write
        (
            World((waiter(extra=(Th(L + 1, SLEEP),)),), unix(SOCK_A, SOCK_B), SELF_HELD),
            (ProbeKind.IDLE, None),
        ),
        # the peer is another live process, sleeping: it may answer (a slow server)
        (World((waiter(), PEER_SLEEPS), unix(SOCK_A, SOCK_B), OTHER_HELD), (ProbeKind.IDLE, None)),
        # the peer is stopped (SIGSTOP): stalled until it continues
        (World((waiter(), PEER_STOPPED), unix(SOCK_A, SOCK_B), OTHER_HELD), (ProbeKind.STALLED, None)),
        # a listening socket: any process may connect
        (
            World(
                (waiter(syscall="288 0x3 0x0 0x0 0x80000 0x0 0x0 0x7f0 0x7f1"),),
                {SOCK_A: Endpoint(SOCK_A, "tcp", "LISTEN", listener=True)},
                held(f"socket:[{SOCK_A}]", (L, 3, "rw")),
            ),
            (ProbeKind.IDLE, None),
        ),
        # a TCP peer on another host: nothing here can say
        (
            World(
                (waiter(),),
                {SOCK_A: Endpoint(SOCK_A, "tcp", "ESTABLISHED", "10.0.0.2:5000", "10.0.0.9:6379")},
                held(f"socket:[{SOCK_A}]", (L, 3, "rw")),
            ),
            (ProbeKind.IDLE, None),
        ),
        # gh-118981: write() on a pipe whose only reader is the writer itself
        (
            World(
                (waiter(syscall=WRITE.format(fd=7), fd="pipe:[9]", zombies={W1: 256}),),
                holders=held("pipe:[9]", (L, 6, "r"), (L, 7, "w")),
            ),
            GONE,
        ),
        # the pipe's reader is another live process: it may read
        (
            World(
                (waiter(syscall=WRITE.format(fd=7), fd="pipe:[9]"), PEER_SLEEPS),
                holders=held("pipe:[9]", (200, 6, "r"), (L, 7, "w")),
            ),
            (ProbeKind.IDLE, None),
        ),
    ],
    ids=[
        "worker-died-kept-end",
        "peer-end-held-here",
        "self-held-no-dead-child",
        "self-held-beside-idle-pool",
        "other-thread-runs",
        "other-thread-sleeps",
        "peer-alive",
        "peer-stopped",
        "listener",
        "remote-host",
        "spawn-write-self-reader",
        "pipe-reader-alive",
    ],
)
def test_peers(world: World, expected: tuple[ProbeKind, str | None]) -> None:
    assert named(world) == expected


FLOCK_WAIT = "73 0x4 0x2 0x0 0x0 0x0 0x0 0x7ffd8ea85678 0x7fee93728f63"
SELF_PIPE = held("pipe:[9]", (L, 3, "r"), (L, 4, "w"))


def own_pipe_ends(nonblocking: bool) -> tuple[OpenFile, ...]:
    """Both ends of pipe:[9], its write end (non-)blocking."""
    return (OpenFile(3, "pipe:[9]", "r"), OpenFile(4, "pipe:[9]", "w", nonblocking=nonblocking))


SIGCHLD_CAUGHT = 1 << 16
SELF_FD = (ProbeKind.DEADLOCK, names.SELF_FD)
TCP_PAIR = {
    SOCK_A: Endpoint(SOCK_A, "tcp", "ESTABLISHED", "127.0.0.1:8000", "127.0.0.1:5000", peer=SOCK_B),
    SOCK_B: Endpoint(SOCK_B, "tcp", "ESTABLISHED", "127.0.0.1:5000", "127.0.0.1:8000", peer=SOCK_A),
}
TCP_HELD = {**held(f"socket:[{SOCK_A}]", (L, 5, "rw")), **held(f"socket:[{SOCK_B}]", (L, 4, "rw"))}
KEEPALIVE = Proc(
    L,
    (
        Th(
            L,
            LOCK.format(addr=0x40),
            py=(("BaseServer.shutdown", "/usr/lib/python3.11/socketserver.py", 253),),
        ),
        Th(
            L + 1,
            "45 0x5 0x7f0 0x2000 0x0 0x0 0x0 0x7f1 0x7f2",
            fd=f"socket:[{SOCK_A}]",
            py=(("readinto", "/usr/lib/python3.11/socket.py", 706),),
        ),
    ),
    sigcgt=0,
)

IN_HANDLER = Proc(
    L,
    (
        Th(
            L,
            LOCK.format(addr=0x40),
            py=(
                ("Condition.wait", "/usr/lib/python3.11/threading.py", 320),
                ("Event.wait", "/usr/lib/python3.11/threading.py", 622),
                ("BaseServer.shutdown", "/usr/lib/python3.11/socketserver.py", 253),
                ("Handler.do_GET", APP, 12),
                ("BaseHTTPRequestHandler.handle_one_request", "/usr/lib/python3.11/http/server.py", 424),
                ("BaseServer.finish_request", "/usr/lib/python3.11/socketserver.py", 361),
                ("BaseServer.serve_forever", "/usr/lib/python3.11/socketserver.py", 238),
                ("<module>", APP, 20),
            ),
        ),
        KEEPALIVE.threads[1],
    ),
    sigcgt=0,
)
"""The main thread's request handler calls shutdown(), which waits for the serve_forever() further
down the same stack, while a client thread of the process reads the response that handler never
finishes (the connection's other end is the main thread's)."""


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        # python/cpython#102156: the main thread waits in server.shutdown() for the server thread,
        # which reads the next request of a keep-alive connection whose client end the main thread keeps
        (World((KEEPALIVE,), TCP_PAIR, TCP_HELD), (ProbeKind.DEADLOCK, names.SELF_FD)),
        # ... shutdown() called by a handler that serve_forever() runs on the same thread, its client
        # a thread of the process reading the response: the handler's thread waits for itself, and
        # the client's read only on it (the stacks' self-wait, not the descriptor's, names it)
        (World((IN_HANDLER,), TCP_PAIR, TCP_HELD), (ProbeKind.DEADLOCK, names.SELF_LOCK)),
        # ... the client end kept by another live process: it may send or close
        (
            World(
                (KEEPALIVE, PEER_SLEEPS), TCP_PAIR, {**TCP_HELD, **held(f"socket:[{SOCK_B}]", (200, 4, "rw"))}
            ),
            (ProbeKind.IDLE, None),
        ),
        # `cat` holding both ends of the pipe that is its stdin (close_fds=False): a C program with no
        # signal handler, one thread, reading what only it could write
        (
            World(
                (Proc(L, (Th(L, READ.format(fd=3), fd="pipe:[9]", comm="cat"),), sigcgt=0),),
                holders=SELF_PIPE,
            ),
            SELF_FD,
        ),
        # ... the same read in a program that handles SIGCHLD: a self-pipe its handler writes
        (
            World(
                (Proc(L, (Th(L, READ.format(fd=3), fd="pipe:[9]", comm="cat"),), sigcgt=SIGCHLD_CAUGHT),),
                holders=SELF_PIPE,
            ),
            (ProbeKind.IDLE, None),
        ),
        # a Python parent reading an exec-status pipe for EOF after its child exec'd and exited, its
        # own copy of the write end never closed: the child's exit cannot end the read
        (
            World((waiter(fd="pipe:[9]", py=BARE_READ, zombies={W1: 0}),), holders=SELF_PIPE),
            SELF_FD,
        ),
        # ... with no dead child: a Python read of its own pipe may be a wait for Ctrl-C (its SIGINT
        # handler writes a wakeup fd): idle
        (World((waiter(fd="pipe:[9]", py=BARE_READ),), holders=SELF_PIPE), (ProbeKind.IDLE, None)),
        # ... the same read, its write end non-blocking: it may be the wakeup fd a handler writes
        (
            World((waiter(fd="pipe:[9]", py=BARE_READ, files=own_pipe_ends(True)),), holders=SELF_PIPE),
            (ProbeKind.IDLE, None),
        ),
        # ... its write end blocking: set_wakeup_fd refuses a blocking descriptor, so no handler
        # writes it: the read waits for itself
        (
            World((waiter(fd="pipe:[9]", py=BARE_READ, files=own_pipe_ends(False)),), holders=SELF_PIPE),
            SELF_FD,
        ),
        # ... and the thread that would write it waits on a lock of this process (the reader holds
        # it while it reads): the two threads wait for one another
        (
            World(
                (
                    waiter(
                        fd="pipe:[9]",
                        py=BARE_READ,
                        files=own_pipe_ends(False),
                        extra=(Th(L + 1, LOCK.format(addr=0x30), py=(("produce", APP, 6),), native=ACQUIRE),),
                    ),
                ),
                holders=SELF_PIPE,
            ),
            SELF_FD,
        ),
        # ... but a Python write into its own full pipe: a handler writes a wakeup fd, nobody waits
        # for a signal by writing (a queue's feeder writing a task only a dead worker would read)
        (
            World((Proc(L, (Th(L, WRITE.format(fd=4), fd="pipe:[9]", py=BARE_READ),)),), holders=SELF_PIPE),
            SELF_FD,
        ),
        # a blocking flock on a file this process has already locked through another open
        (
            World((Proc(L, (Th(L, FLOCK_WAIT, fd="/data/x.lock", holder=L, py=BARE_READ),)),)),
            SELF_FD,
        ),
        # ... held by another live process that sleeps: it may unlock
        (
            World((Proc(L, (Th(L, FLOCK_WAIT, fd="/data/x.lock", holder=200, py=BARE_READ),)), PEER_SLEEPS)),
            (ProbeKind.IDLE, None),
        ),
        # ... beside a thread of its own that sleeps on a timer: it may unlock
        (
            World(
                (Proc(L, (Th(L, FLOCK_WAIT, fd="/data/x.lock", holder=L, py=BARE_READ), Th(L + 1, SLEEP))),)
            ),
            (ProbeKind.IDLE, None),
        ),
    ],
    ids=[
        "server-thread-reads-a-connection-the-main-thread-keeps",
        "shutdown-in-a-handler-its-client-a-thread-of-the-process",
        "server-thread-reads-a-connection-another-process-keeps",
        "cat-own-stdin",
        "own-pipe-sigchld-handler",
        "errpipe-child-exited",
        "own-pipe-python-no-dead-child",
        "own-pipe-python-nonblocking-write-end",
        "own-pipe-python-blocking-write-end",
        "own-pipe-python-writer-waits-on-the-readers-lock",
        "own-pipe-python-write",
        "flock-held-by-itself",
        "flock-held-by-a-sleeper",
        "flock-beside-a-timer",
    ],
)
def test_a_wait_only_the_waiter_itself_can_end(world: World, expected: tuple[ProbeKind, str | None]) -> None:
    assert named(world) == expected
    if expected == (ProbeKind.DEADLOCK, names.SELF_LOCK):
        chain = world.judged()[L].waitfor
        assert chain is not None
        assert chain.end.value == "self-wait"
        # the client thread's read is in the evidence, behind the self-wait
        named_by = world.judged()[L].named
        assert named_by is not None
        assert any("recvfrom()" in line and "only process" in line for line in named_by.evidence)
    if expected == SELF_FD:
        chain = world.judged()[L].waitfor
        assert chain is not None
        # two threads waiting for one another through it are a cycle; one alone waits for itself
        assert chain.end.value == ("cycle" if len(world.procs[0].threads) > 1 else "self-wait")


FILELOCK_API = "/venv/lib/python3.11/site-packages/filelock/_api.py"
RETRYING = Th(
    L,
    SLEEP,
    vol=40,
    py=(("BaseFileLock.acquire", FILELOCK_API, 344), ("update_cache", APP, 10), ("<module>", APP, 14)),
)
LOCKED_TWICE = (
    OpenFile(3, "/tmp/cache.lock", "w", None, 777, True),
    OpenFile(4, "/tmp/cache.lock", "w", None, 777, False),
)


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        # tox-dev/filelock#315: a second FileLock on a file this thread already locked polls flock()
        # (LOCK_NB, a sleep between tries) on a second open of the file: only it could release the first
        (World((Proc(L, (RETRYING,), files=LOCKED_TWICE),)), SELF_FD),
        # ... the first lock kept by a thread that sleeps on a timer: it may release it (16 s later)
        (World((Proc(L, (RETRYING, Th(L + 1, SLEEP)), files=LOCKED_TWICE),)), (ProbeKind.IDLE, None)),
        # ... a dup of the locked descriptor (the same description: no second lock to wait for)
        (
            World(
                (
                    Proc(
                        L,
                        (RETRYING,),
                        files=(LOCKED_TWICE[0], OpenFile(4, "/tmp/cache.lock", "w", None, 777, True)),
                    ),
                )
            ),
            (ProbeKind.IDLE, None),
        ),
        # ... a thread retrying something else (no lock's acquire on its stack) beside a locked pidfile
        (
            World((Proc(L, (replace(RETRYING, py=(("poll_server", APP, 30),)),), files=LOCKED_TWICE),)),
            (ProbeKind.IDLE, None),
        ),
        # filelock opens the file afresh at each try: no second open to see, but no other process on
        # the host holds or waits for a file lock: the lock it retries can only be its own
        (World((Proc(L, (RETRYING,), files=LOCKED_TWICE[:1]),), flock_takers=frozenset({L})), SELF_FD),
        # ... another process holds a file lock: the retry may be for that one, which it may release
        (
            World((Proc(L, (RETRYING,), files=LOCKED_TWICE[:1]),), flock_takers=frozenset({L, 300})),
            (ProbeKind.IDLE, None),
        ),
        # the thread holding the lock sleeps 16 s inside its `with FileLock` (woken now and then by
        # the stack tools' stops): not a retry, it will release the lock
        (
            World(
                (
                    Proc(
                        L,
                        (RETRYING, Th(L + 1, SLEEP, vol=12, left_s=11.0, py=(("holder", APP, 9),))),
                        files=LOCKED_TWICE[:1],
                    ),
                ),
                flock_takers=frozenset({L}),
            ),
            (ProbeKind.IDLE, None),
        ),
    ],
    ids=[
        "second-open-retried",
        "holder-thread-on-a-timer",
        "dup-of-the-locked-fd",
        "retry-of-something-else",
        "opened-at-each-try-no-other-locker",
        "opened-at-each-try-another-locker",
        "holder-in-a-long-sleep-woken-by-stack-tools",
    ],
)
def test_a_retry_of_a_file_lock_the_process_holds_itself(
    world: World, expected: tuple[ProbeKind, str | None]
) -> None:
    assert named(world) == expected


def test_a_wait_behind_a_deadlocked_peer_is_that_peers_hang() -> None:
    world = World((waiter(), PEER_LOCKED), unix(SOCK_A, SOCK_B), OTHER_HELD)
    j = world.judged()[L]
    f, _ = j.finding, j.named
    assert f.kind is ProbeKind.DEADLOCK
    assert "blocked behind process(es) 200" in f.reason


def test_a_pool_worker_waiting_for_tasks_from_a_hung_launcher_stays_idle() -> None:
    """By design it waits for its launcher; the launcher's hang is the launcher's verdict."""
    world = World((launcher(results=False), worker(W1)), holders=held("pipe:[6]", (L, 4, "w"), (W1, 3, "r")))
    j = world.judged()[W1]
    f, _ = j.finding, j.named
    assert f.kind is ProbeKind.IDLE


def test_an_inherited_end_outliving_the_child_is_stalled() -> None:
    """subprocess.run(capture_output=True) whose child started a background server: the child
    exited, the server (reparented to init) holds the pipe's write end and never writes."""
    runner = Proc(
        L,
        (
            Th(
                L,
                POLL.format(n=2, timeout=FOREVER),
                watched=((3, "pipe:[11]"), (5, "pipe:[12]")),
                py=(("poll", "/x/selectors.py", 415),),
            ),
        ),
        zombies={W1: 0},
        files=(OpenFile(3, "pipe:[11]", "r", 0), OpenFile(5, "pipe:[12]", "r", 0)),
    )
    server = Proc(300, (Th(300, "288 0x3 0x0 0x0 0x80000 0x0 0x0 0x7f0 0x7f1", fd="socket:[77]"),), parent=1)
    holders = {
        **held("pipe:[11]", (L, 3, "r"), (300, 1, "w")),
        **held("pipe:[12]", (L, 5, "r"), (300, 2, "w")),
    }
    sockets = {77: Endpoint(77, "tcp", "LISTEN", listener=True)}
    j = World((runner, server), sockets, holders).judged()[L]
    f, _ = j.finding, j.named
    assert f.kind is ProbeKind.STALLED
    assert "inherited the descriptor" in f.reason


ZMQ = "/v/zmq/backend/cython/libzmq.so"
EVENTFD = "anon_inode:[eventfd]"


def zmq_client(
    main_py: tuple[tuple[str, str, int], ...], io_timeout: int, main_native: tuple[str, ...], io_vol: int = 14
) -> Proc:
    """pyzmq Context.term() with LINGER -1: main polls its own eventfd; the reaper and I/O
    threads epoll on eventfds only (the I/O thread re-arms a reconnect timer)."""
    return Proc(
        L,
        (
            Th(L, POLL.format(n=1, timeout=FOREVER), watched=((3, EVENTFD),), py=main_py, native=main_native),
            Th(
                L + 1,
                EPOLL.format(epfd=5, timeout=FOREVER),
                comm="ZMQbg/Reaper",
                watched=((4, EVENTFD), (8, EVENTFD)),
                native=(f"epoll_wait@{LIBC}", f"??@{ZMQ}", *STARTED),
            ),
            Th(
                L + 2,
                EPOLL.format(epfd=7, timeout=io_timeout),
                comm="ZMQbg/IO/0",
                vol=io_vol,
                watched=((6, EVENTFD),),
                native=(f"epoll_wait@{LIBC}", f"??@{ZMQ}", *STARTED),
            ),
        ),
    )


TERM = (("Context.term", "/v/zmq/sugar/context.py", 266), ("main", APP, 30))
RECV_ZMQ = (("Socket.recv", "/v/zmq/sugar/socket.py", 100), ("main", APP, 30))


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        # the teardown waits to flush to an endpoint nobody listens on while its I/O thread retries
        # the connect on a timer: a listener that comes ends it (a peer starting late), one that
        # has gone never will: one look cannot tell (blind corpus case 11 and its look-alike)
        (
            World((zmq_client(TERM, 150, (f"poll@{LIBC}", f"??@{ZMQ}", f"zmq_ctx_term@{ZMQ}")),)),
            (ProbeKind.STALLED, None),
        ),
        # the same teardown with nothing retrying (the I/O thread parked untimed): no one can end it
        (
            World(
                (zmq_client(TERM, FOREVER, (f"poll@{LIBC}", f"??@{ZMQ}", f"zmq_ctx_term@{ZMQ}"), io_vol=0),)
            ),
            GONE,
        ),
        # the same threads, but not in a teardown (a client waiting for a reply): idle, judged
        # by the timer-driven I/O thread, which may still connect
        (
            World((zmq_client(RECV_ZMQ, 150, (f"poll@{LIBC}", f"??@{ZMQ}", f"zmq_msg_recv@{ZMQ}")),)),
            (ProbeKind.IDLE, None),
        ),
    ],
    ids=["zmq-term-linger-retrying", "zmq-term-nothing-retries", "zmq-recv"],
)
def test_a_process_every_thread_of_which_waits_on_itself(
    world: World, expected: tuple[ProbeKind, str | None]
) -> None:
    assert named(world) == expected


GRPC = "/v/grpc/_cython/cygrpc.cpython-311-x86_64-linux-gnu.so"
RPC = (("_blocking", "/v/grpc/_channel.py", 1152), ("rpc", APP, 5))


def grpc_parent(started_in_lib: bool = True) -> Proc:
    start = (f"??@{GRPC}", *STARTED) if started_in_lib else PY_STARTED
    return Proc(
        L,
        (
            Th(L, "61 0x65 0x7ffd00002000 0x0 0x0 0x0 0x0 0x7f0 0x7f1"),
            Th(
                L + 1,
                TIMED.format(addr=0x7F20),
                comm="event_engine",
                native=(f"syscall@{LIBC}", f"??@{GRPC}", *start),
            ),
        ),
    )


def grpc_child(native: tuple[str, ...]) -> Proc:
    return Proc(
        W1,
        (Th(W1, EPOLL.format(epfd=3, timeout=201), vol=10, watched=((4, EVENTFD),), py=RPC, native=native),),
        parent=L,
        forked_from=L,
    )


IN_GRPC = (f"epoll_wait@{LIBC}", f"??@{GRPC}", f"??@{GRPC}", f"_PyEval_EvalFrameDefault@{PYTHON}")
IN_PYTHON = (f"epoll_wait@{LIBC}", f"select_epoll_poll@{PYTHON}", f"_PyEval_EvalFrameDefault@{PYTHON}")
PREFORK = (
    f"syscall@{LIBC}",
    f"??@{GRPC}",
    f"__run_prefork_handlers@{LIBC}",
    f"__fork@{LIBC}",
    f"os_fork@{PYTHON}",
)


@pytest.mark.parametrize(
    ("world", "pid", "expected"),
    [
        # a forked child's RPC: a re-armed epoll inside gRPC, whose threads stayed in the parent
        (World((grpc_parent(), grpc_child(IN_GRPC))), W1, (ProbeKind.DEADLOCK, names.FORK_AFTER_INIT)),
        # the child waits in the interpreter's own epoll (an asyncio loop): not a library's
        (World((grpc_parent(), grpc_child(IN_PYTHON))), W1, (ProbeKind.IDLE, None)),
        # the parent has no thread of that library: nothing was left behind
        (World((grpc_parent(started_in_lib=False), grpc_child(IN_GRPC))), W1, (ProbeKind.IDLE, None)),
        # grpcio 1.52.0: fork() waits in a prepare handler for a thread that epolls its own eventfd
        (
            World(
                (
                    Proc(
                        L,
                        (
                            Th(
                                L,
                                TIMED.format(addr=0x7F30),
                                vol=1,
                                py=(("<module>", APP, 8),),
                                native=PREFORK,
                                gil=True,
                            ),
                            Th(
                                L + 1,
                                EPOLL.format(epfd=5, timeout=86400000),
                                comm="event_engine",
                                watched=((6, EVENTFD),),
                                native=(f"epoll_wait@{LIBC}", f"??@{GRPC}", *STARTED),
                            ),
                        ),
                    ),
                )
            ),
            L,
            (ProbeKind.DEADLOCK, names.FORK_HANDLER),
        ),
        # the same handler while its thread reads a pipe another process writes: it may come
        (
            World(
                (
                    Proc(
                        L,
                        (
                            Th(L, TIMED.format(addr=0x7F30), vol=1, native=PREFORK, gil=True),
                            Th(
                                L + 1,
                                READ.format(fd=9),
                                fd="pipe:[40]",
                                native=(f"read@{LIBC}", f"??@{GRPC}", *STARTED),
                            ),
                        ),
                    ),
                    PEER_SLEEPS,
                ),
                holders=held("pipe:[40]", (L, 9, "r"), (200, 1, "w")),
            ),
            L,
            (ProbeKind.IDLE, None),
        ),
    ],
    ids=[
        "child-rpc",
        "child-in-python",
        "parent-without-library-threads",
        "prefork-handler",
        "prefork-handler-external",
    ],
)
def test_forks(world: World, pid: int, expected: tuple[ProbeKind, str | None]) -> None:
    assert named(world, pid) == expected


def test_a_forked_childs_wait_for_a_library_left_in_the_parent_is_told_by_its_facts() -> None:
    """The rule returns what it saw (`judge.words` words it): the fork, where its thread waits, the
    library's threads in the parent, the re-armed wait."""
    m = World((grpc_parent(), grpc_child(IN_GRPC))).judged()[W1].named
    assert m is not None
    lib = GRPC.rsplit("/", 1)[-1]
    assert m.facts == (
        ev.ForkNoExec(W1, L),
        ev.LibraryWait(W1, "epoll_wait()", lib, "_blocking (/v/grpc/_channel.py:1152)"),
        ev.ParentLibraryThreads(1, lib, ("event_engine",)),
        ev.RearmedWait(10),
    )


DUCK = "/v/duckdb/duckdb.cpython-311-x86_64-linux-gnu.so"
SPIN = (
    f"duckdb::TaskExecutor::WorkOnTasks@{DUCK}",
    f"duckdb::MultiFileReader::BindReader@{DUCK}",
    f"duckdb::DuckDBPyConnection::FromParquets@{DUCK}",
    f"cfunction_call@{PYTHON}",
    f"_PyEval_EvalFrameDefault@{PYTHON}",
)
GIL_WAIT = (
    f"pthread_cond_timedwait@{LIBC}",
    f"take_gil@{PYTHON}",
    f"PyEval_RestoreThread@{PYTHON}",
    f"duckdb::PythonFilesystem::OpenFile@{DUCK}",
    f"duckdb::TaskScheduler::ExecuteForever@{DUCK}",
    *STARTED,
)
GIL_WAIT_PY = (
    f"pthread_cond_timedwait@{LIBC}",
    f"take_gil@{PYTHON}",
    f"PyEval_RestoreThread@{PYTHON}",
    *PY_STARTED,
)
FROM_PARQUET = (("from_parquet", APP, 67),)


def spinner(
    *,
    later_native: tuple[str, ...] | None = None,
    moved: int = 0,
    later_py: tuple[tuple[str, str, int], ...] | None = None,
    waiter: tuple[str, ...] = GIL_WAIT,
    waiter_state: str = "S",
) -> World:
    """DuckDB 1.2.1 (duckdb#16501): the GIL holder spins in WorkOnTasks; DuckDB's own threads
    wait for the GIL in its Python filesystem's open."""
    return World(
        (
            Proc(
                L,
                (
                    Th(
                        L,
                        None,
                        state="R",
                        cpu_ms=1820,
                        py=FROM_PARQUET,
                        gil=True,
                        native=SPIN,
                        later_native=later_native,
                        moved=moved,
                        later_py=later_py,
                    ),
                    Th(
                        L + 1,
                        TIMED.format(addr=0x7F40) if waiter_state == "S" else None,
                        waiter_state,
                        7,
                        390,
                        native=waiter,
                    ),
                    Th(L + 2, TIMED.format(addr=0x7F40), cpu_ms=7, vol=390, native=waiter),
                ),
            ),
        )
    )


COMPUTE = (f"_PyEval_EvalFrameDefault@{PYTHON}", f"PyEval_EvalCode@{PYTHON}")


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        (spinner(), (ProbeKind.LIVELOCK, names.GIL_SPIN)),
        # the holder left the library between looks: it runs Python, it works
        (spinner(later_native=COMPUTE), (ProbeKind.BUSY, None)),
        # it moved bytes: it reads, it works
        (spinner(moved=4 << 20), (ProbeKind.BUSY, None)),
        # its Python line moved: Python code advances
        (spinner(later_py=(("from_parquet", APP, 68),)), (ProbeKind.BUSY, None)),
        # the GIL's waiters are Python's own threads, not the library's: they wait their turn
        (spinner(waiter=GIL_WAIT_PY), (ProbeKind.BUSY, None)),
        # on a crowded host the waiter is caught queued for a CPU between its 5 ms wake-ups
        (spinner(waiter_state="R"), (ProbeKind.LIVELOCK, names.GIL_SPIN)),
    ],
    ids=[
        "duckdb-fsspec",
        "stack-moved",
        "bytes-moved",
        "python-line-moved",
        "python-threads-wait",
        "waiter-queued",
    ],
)
def test_gil_spin(world: World, expected: tuple[ProbeKind, str | None]) -> None:
    assert named(world) == expected


ORT = "/v/onnxruntime/capi/onnxruntime_pybind11_state.so"
ORT_SPIN = (f"??@{ORT}", f"??@{ORT}", f"??@{ORT}", f"cfunction_vectorcall@{PYTHON}")
NUMPY = "/v/numpy/core/_multiarray_umath.so"
OPENBLAS = "/v/numpy.libs/libopenblas64_p-r0.so"


def forked_spinner(native: tuple[str, ...], later: tuple[str, ...] | None, lib: str) -> World:
    parent = Proc(
        L,
        (
            Th(L, "61 0x65 0x7ffd00002000 0x0 0x0 0x0 0x0 0x7f0 0x7f1"),
            Th(L + 1, LOCK.format(addr=0x7F50), native=(f"syscall@{LIBC}", f"??@{lib}", *STARTED)),
        ),
    )
    child = Proc(
        W1,
        (
            Th(
                W1,
                None,
                state="R",
                cpu_ms=1900,
                py=(("run", "/v/onnxruntime/session.py", 220),),
                native=native,
                later_native=later,
            ),
        ),
        parent=L,
        forked_from=L,
    )
    return World((parent, child))


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        # onnxruntime#9800: the child's only thread spin-waits (WaitAll) for the inter-op pool
        (forked_spinner(ORT_SPIN, None, ORT), (ProbeKind.LIVELOCK, names.FORK_AFTER_INIT)),
        # a forked child computing in a library (a matmul whose frames move): busy, not a spin
        (
            forked_spinner(
                (
                    f"dgemm_kernel@{OPENBLAS}",
                    f"cblas_dgemm@{OPENBLAS}",
                    f"??@{NUMPY}",
                    f"cfunction_vectorcall@{PYTHON}",
                ),
                (
                    f"dgemm_oncopy@{OPENBLAS}",
                    f"cblas_dgemm@{OPENBLAS}",
                    f"??@{NUMPY}",
                    f"cfunction_vectorcall@{PYTHON}",
                ),
                OPENBLAS,
            ),
            (ProbeKind.BUSY, None),
        ),
    ],
    ids=["ort-fork", "child-compute"],
)
def test_fork_spin(world: World, expected: tuple[ProbeKind, str | None]) -> None:
    assert named(world, W1) == expected


def test_a_forked_childs_spin_is_told_by_its_facts() -> None:
    m = forked_spinner(ORT_SPIN, None, ORT).judged()[W1].named
    assert m is not None
    lib = ORT.rsplit("/", 1)[-1]
    assert m.facts == (
        ev.ForkNoExec(W1, L),
        ev.LibrarySpin(W1, lib, lib, 1.9, 2.0, 2),
        ev.ParentSpinWorkers(1, lib),
    )


TBB = "/v/lib/libtbb.so.2"
TBB_SPIN = (
    f"sched_yield@{LIBC}",
    f"tbb::internal::market::release@{TBB}",
    "prepare_fork@/v/numba/tbbpool.so",
    f"__run_prefork_handlers@{LIBC}",
    f"__fork@{LIBC}",
    f"os_fork@{PYTHON}",
)


@pytest.mark.parametrize(
    ("others", "expected"),
    [
        # numba#5983: fork() spins in TBB's prepare handler; the other threads are parked
        (
            (
                Th(L + 1, LOCK.format(addr=0x7F60), py=(("Event.wait", THREADING, 655),)),
                Th(L + 2, LOCK.format(addr=0x7F70)),
            ),
            (ProbeKind.LIVELOCK, names.FORK_HANDLER),
        ),
        # a thread that works (running): the handler may yet see what it waits for
        ((Th(L + 1, None, state="R", cpu_ms=900),), (ProbeKind.BUSY, None)),
    ],
    ids=["numba-tbb-prefork", "another-thread-works"],
)
def test_prefork_spin(others: tuple[Th, ...], expected: tuple[ProbeKind, str | None]) -> None:
    main = Th(L, None, state="R", cpu_ms=1700, gil=True, py=(("child", APP, 58),), native=TBB_SPIN)
    world = World((Proc(L, (main, *others)),))
    assert named(world) == expected
    if expected[1] is not None:
        m = world.judged()[L].named
        assert m is not None
        assert m.facts == (
            ev.PrepareHandlerSpin(L, "__run_prefork_handlers", "sched_yield", 1.7, 2),
            ev.OthersWaitInside(len(others)),
        )


# Rules the held-out hangs taught (a set of real hangs measured before these rules existed).
def test_a_write_into_a_full_pipe_closes_a_cycle_across_processes() -> None:
    """subprocess docs: the parent reads the child's stdout while the child fills stderr."""
    parent = Proc(L, (Th(L, READ.format(fd=3), fd="pipe:[31]"),), pipes={"pipe:[31]": "r", "pipe:[32]": "r"})
    child = Proc(
        W1,
        (Th(W1, WRITE.format(fd=2), fd="pipe:[32]"),),
        parent=L,
        pipes={"pipe:[31]": "w", "pipe:[32]": "w"},
    )
    world = World((parent, child))
    assert world.named(L) == (ProbeKind.DEADLOCK, names.PIPE_CYCLE)
    assert world.named(W1) == (ProbeKind.DEADLOCK, names.PIPE_CYCLE)


def test_a_read_of_a_pipe_a_live_child_may_write_is_no_cycle() -> None:
    parent = Proc(L, (Th(L, READ.format(fd=3), fd="pipe:[31]"),), pipes={"pipe:[31]": "r"})
    child = Proc(W1, (Th(W1, SLEEP),), parent=L, pipes={"pipe:[31]": "w"})
    assert World((parent, child)).named(L) == (ProbeKind.IDLE, None)


SIGNAL_IN_QUEUE = (
    f"PyThread_acquire_lock_timed@{PYTHON}",
    f"lock_PyThread_acquire_lock@{PYTHON}",
    f"_PyEval_EvalFrameDefault@{PYTHON}",
    f"_PyErr_CheckSignalsTstate@{PYTHON}",
    f"_Py_HandlePending@{PYTHON}",
    f"_PyEval_EvalFrameDefault@{PYTHON}",
)
HANDLER_PY = (
    ("Condition.__enter__", "/usr/lib/python3.12/threading.py", 300),
    ("Queue.put", "/usr/lib/python3.12/queue.py", 133),
    ("on_alarm", APP, 21),
    ("Condition.__exit__", "/usr/lib/python3.12/threading.py", 302),
    ("Queue.get", "/usr/lib/python3.12/queue.py", 165),
)
SIGALRM = 1 << 13


@pytest.mark.parametrize(
    ("native", "expected"),
    [
        # bpo-14976: a SIGALRM handler puts into the queue whose lock the interrupted get() holds
        (SIGNAL_IN_QUEUE, (ProbeKind.DEADLOCK, names.SIGNAL_HANDLER_LOCK)),
        # the same wait outside a handler, in a process that catches SIGALRM: a handler may end it
        (SIGNAL_IN_QUEUE[:3], (ProbeKind.IDLE, None)),
    ],
    ids=["handler-takes-held-lock", "lock-wait-outside-handler"],
)
def test_a_signal_handler_blocked_on_the_lock_it_interrupted(
    native: tuple[str, ...], expected: tuple[ProbeKind, str | None]
) -> None:
    main = Th(L, LOCK.format(addr=0x5640), py=HANDLER_PY, native=native)
    assert World((Proc(L, (main,), sigcgt=SIGALRM | 2),), tree=False).named(L) == expected


TOK = "/v/tokenizers/tokenizers.abi3.so"
IN_TOK = (f"syscall@{LIBC}", f"??@{TOK}", f"??@{TOK}", f"cfunction_call@{PYTHON}")
TOK_TASK = (
    ("encode", "/v/tokenizers/impl.py", 40),
    ("task", APP, 12),
    ("mapstar", POOL, 48),
    ("worker", POOL, 125),
)


def test_a_launcher_behind_its_hung_workers_is_their_hang() -> None:
    """tokenizers#187: a fork pool's workers wait, in tokenizers, for its rayon threads that stayed
    in the parent; the launcher waits for their results: its hang is theirs, named after them."""
    parent_threads = (Th(L + 5, LOCK.format(addr=0x7F80), native=(f"syscall@{LIBC}", f"??@{TOK}", *STARTED)),)
    launcher_ = Proc(L, (*launcher().threads, *parent_threads))
    kid = Proc(W1, (Th(W1, LOCK.format(addr=0x7F90), py=TOK_TASK, native=IN_TOK),), parent=L, forked_from=L)
    world = World((launcher_, kid, worker(W2)))
    assert world.named(W1) == (ProbeKind.DEADLOCK, names.FORK_AFTER_INIT)
    assert world.named(L) == (ProbeKind.DEADLOCK, names.FORK_AFTER_INIT)
    assert f"blocked behind its pool's worker(s) {W1}" in world.judged()[L].finding.reason


def test_a_launcher_whose_worker_is_at_work_is_not_behind_it() -> None:
    kid = Proc(W1, (Th(W1, SLEEP, py=IN_TASK),), parent=L)
    assert World((launcher(), kid, worker(W2))).named(L) == (ProbeKind.IDLE, None)
