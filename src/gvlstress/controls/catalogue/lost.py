"""The catalogue's hangs on something lost or gone: a task or result no worker of a process pool
holds, a peer (pipe, socket, thread, the holder of a lock) that died or will never act, a
wake-up (an item, a notify, a cancellation) lost on the way.

No cycle closes here: the wait-for chain ends at a party that is gone or will never act, or at
nothing (`End`), so `inspect` follows it, most often across the process tree (``tree=True``), to
name what is missing.
"""

from __future__ import annotations

from gvlstress.judge import names
from gvlstress.model.controls import RealBug
from gvlstress.model.waitfor import End

LOST: tuple[RealBug, ...] = (
    # -- lost tasks: a process pool waits for a result no worker holds
    RealBug(
        "pool-worker-killed",
        "multiprocessing.Pool: a worker SIGKILLed mid-task (the OOM killer) is replaced, its task is lost",
        "https://github.com/python/cpython/issues/66587 (bpo-22393)",
        "pool_kill",
        names.LOST_TASK,
        tree=True,
        shape="lost task",
    ),
    RealBug(
        "pool-worker-exits",
        "multiprocessing.Pool: a task whose C library calls exit() ends its worker; the task is lost",
        "https://github.com/python/cpython/issues/82265 (bpo-38084, a duplicate of bpo-22393)",
        "pool_exit",
        names.LOST_TASK,
        tree=True,
        shape="lost task",
    ),
    RealBug(
        "executor-max-tasks-per-child",
        "ProcessPoolExecutor(max_tasks_per_child=2) stops replacing retired workers; queued tasks never run",
        "https://github.com/python/cpython/issues/115634 (fixed by https://github.com/python/cpython/pull/140900)",
        "ppe_maxtasks",
        names.LOST_TASK,
        tree=True,
        shape="lost task",
        end=End.NOBODY,  # no worker exists to run the task: nothing in the tree can
    ),
    RealBug(
        "pathos-worker-killed",
        "pathos 0.3.5 (multiprocess): a ProcessPool worker SIGKILLed mid-task; the task is lost",
        "https://github.com/uqfoundation/pathos/issues/230 (control: billiard's WorkerLostError)",
        "pathos_kill",
        names.LOST_TASK,
        packages=(
            "pathos==0.3.5",
            "multiprocess==0.70.19",
            "dill==0.4.1",
            "pox==0.3.7",
            "ppft==1.7.8",
        ),
        tree=True,
        control_packages=("billiard==4.3.2",),
        shape="lost task",
    ),
    RealBug(
        "pool-initializer-raises",
        "multiprocessing.Pool: the initializer raises; each worker dies at start and the pool starts "
        "another at once, map() never returns",
        "https://github.com/python/cpython/issues/87472 (bpo-43306; e.g. https://github.com/zeldaret/oot/pull/2297)",
        "pool_init_fail",
        names.RESPAWN_LOOP,
        tree=True,
        verdict="livelock",
        shape="lost task",
    ),
    RealBug(
        "pool-spawn-without-main-guard",
        "multiprocessing.Pool under spawn at a script's top level, no __main__ guard: each worker re-runs "
        "the script and dies bootstrapping; the pool keeps replacing them",
        "https://docs.python.org/3/library/multiprocessing.html#the-spawn-and-forkserver-start-methods "
        "(e.g. https://github.com/AI4EPS/GaMMA/pull/32)",
        "pool_no_main_guard",
        names.RESPAWN_LOOP,
        tree=True,
        verdict="livelock",
        shape="lost task",
    ),
    RealBug(
        "pool-result-unpickle",
        "multiprocessing.Pool: apply_async().get() of a task whose exception cannot be unpickled; "
        "the result handler died",
        "https://github.com/python/cpython/issues/79492 (bpo-35311)",
        "result_unpickle",
        names.LOST_RESULTS,
        tree=True,
        shape="lost task",
        args=("idle",),
    ),
    RealBug(
        "executor-shutdown-nowait",
        "ProcessPoolExecutor(max_tasks_per_child=1).shutdown(wait=False): the manager thread dies "
        "replacing a worker; the queued tasks never run",
        "https://github.com/python/cpython/issues/119592 (and https://github.com/python/cpython/issues/132969)",
        "ppe_nowait",
        names.LOST_RESULTS,
        tree=True,
        shape="lost task",
    ),
    # -- peers: a wait on a pipe, socket or thread that will never act
    RealBug(
        "mp-pipe-recv-dead-worker",
        "multiprocessing.Pipe: recv() from a worker that died while the parent kept its end",
        "https://docs.python.org/3/library/multiprocessing.html#multiprocessing.connection.Connection.recv "
        "(e.g. https://github.com/Bogdanp/dramatiq/pull/707)",
        "mp_pipe_recv",
        names.PEER_GONE,
        shape="peer",
    ),
    RealBug(
        "pool-lock-holder-killed",
        "multiprocessing.Pool: an idle worker SIGKILLed while it held the task queue's read lock; its "
        "replacement and siblings wait on that semaphore forever",
        "https://github.com/python/cpython/issues/96062 (family of https://github.com/python/cpython/issues/66587)",
        "pool_lock_kill",
        names.DEAD_LOCK_HOLDER,
        tree=True,
        shape="peer",
    ),
    RealBug(
        "queue-consumer-terminated",
        "multiprocessing.Queue: Process.terminate() of a consumer waiting in get(); the other consumers "
        "wait forever on the read lock it held",
        "https://docs.python.org/3/library/multiprocessing.html#pipes-and-queues (the warning; "
        "https://docs.python.org/3/library/multiprocessing.html#programming-guidelines)",
        "queue_consumer_terminated",
        names.DEAD_LOCK_HOLDER,
        tree=True,
        shape="peer",
    ),
    RealBug(
        "mp-spawn-child-crash",
        "multiprocessing spawn: start() blocks writing the process object to a child that died",
        "https://github.com/python/cpython/issues/118981 (fixed by https://github.com/python/cpython/pull/118982)",
        "mp_spawn_crash",
        names.PEER_GONE,
        shape="peer",
    ),
    RealBug(
        "grpc-prefork-handler",
        "grpcio 1.52.0 (yanked): fork() after an RPC never returns; the prepare handler waits for a "
        "pool thread parked in its poller",
        "https://github.com/grpc/grpc/issues/31885 (1.52.0 yanked: https://github.com/grpc/grpc/issues/32306)",
        "grpc_prefork",
        names.FORK_HANDLER,
        packages=("grpcio==1.52.0",),
        control_packages=("grpcio==1.53.0",),
        shape="peer",
    ),
    RealBug(
        "grpc-child-rpc-no-fork-support",
        "grpcio 1.85.3, GRPC_ENABLE_FORK_SUPPORT=0: an RPC in a forked child waits for gRPC threads "
        "that stayed in the parent",
        "https://github.com/grpc/grpc/blob/master/doc/fork_support.md (https://github.com/grpc/grpc/issues/13464)",
        "grpc_child_rpc",
        names.FORK_AFTER_INIT,
        packages=("grpcio==1.85.3", "typing_extensions==4.16.0"),
        env=(("GRPC_ENABLE_FORK_SUPPORT", "0"),),
        shape="peer",
    ),
    # -- lost wake-ups: the item, notify or cancellation a wait needs was lost on the way
    RealBug(
        "mp-queue-put-unpicklable",
        "multiprocessing.Queue: put() of a result that cannot be pickled; the feeder thread drops it and "
        "the consumer's get() waits forever",
        "https://github.com/python/cpython/issues/84376 (bpo-40195; https://github.com/python/cpython/issues/109554)",
        "queue_unpicklable",
        names.FEEDER_DROPPED,
        tree=True,
        shape="lost wake-up",
    ),
    RealBug(
        "asyncio-condition-notify-lost",
        "asyncio.Condition (CPython 3.11): notify(1) wakes a task that is cancelled at once; the other "
        "waiter never wakes",
        "https://github.com/python/cpython/issues/112202 (fixed in 3.13 by https://github.com/python/cpython/pull/112201)",
        "asyncio_condition_notify",
        names.LOOP_LOST_WAKEUP,
        python="3.11",
        shape="lost wake-up",
    ),
)
