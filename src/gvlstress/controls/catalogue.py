"""The catalogue of real bugs used as positive controls: documented hangs in Python and PyPI packages, each with the
documented fix or workaround as its control (`gvlstress selftest --real`).

Each entry's trigger (a standalone program in ``controls/bugs``) puts a real process into the
hang and prints ``look PID`` and ``ready``; the harness inspects that process as a user would
and expects the entry's verdict (``deadlock``, or ``livelock`` for a spin; exit 1 either way)
and its pattern. ``PROGRAM control`` runs the fixed variant, which must finish with exit 0.
Entries with packages (or a CPython of their own) run in an interpreter that has exactly the
pinned versions: this one if it does, else a venv built once in the cache. An entry's fields
and the shapes that group the entries in the docs: ``controls.realbug``.
"""

from __future__ import annotations

from gvlstress.controls.realbug import BUGS_DIR, NO_RUNTIME, SHAPES, RealBug
from gvlstress.judge import names
from gvlstress.model.waitfor import End

__all__ = ["BUGS_DIR", "CATALOGUE", "NAMES", "NO_RUNTIME", "SHAPES", "RealBug"]

_DUCKDB_PANDAS_DEPS = (
    "pandas==1.5.3",
    "numpy==1.23.5",
    "python-dateutil==3.0.0",
    "pytz==2026.6",
    "six==1.17.0",
    "tzdata==2026.6",
)


CATALOGUE: tuple[RealBug, ...] = (
    RealBug(
        "mp-join-before-get",
        "multiprocessing: join() a child before get() of the large item it queued",
        "https://docs.python.org/3/library/multiprocessing.html#multiprocessing-programming",
        "mp_join_before_get",
        names.JOIN_BEFORE_DRAIN,
        tree=True,
    ),
    RealBug(
        "asyncio-wait-before-reading",
        "asyncio: await a child's wait() before reading the stdout=PIPE it fills (the documented pitfall)",
        "https://docs.python.org/3/library/asyncio-subprocess.html#asyncio.subprocess.Process.wait",
        "asyncio_wait_before_read",
        names.JOIN_BEFORE_DRAIN,
        tree=True,
        python="3.11",
    ),
    RealBug(
        "threadpool-nested-future",
        "concurrent.futures: a task waits for a future of its own one-worker pool",
        "https://docs.python.org/3/library/concurrent.futures.html#threadpoolexecutor",
        "threadpool_nested",
        names.THREAD_POOL_EXHAUSTION,
    ),
    RealBug(
        "import-spawns-and-joins",
        "threading: a module's import starts a thread that imports it, and joins it",
        "https://docs.python.org/3/library/threading.html#importing-in-threaded-code",
        "import_thread_join",
        names.IMPORT_LOCK,
    ),
    RealBug(
        "executor-killed-mid-send",
        "ProcessPoolExecutor: a worker SIGKILLed while sending a large result wedges it",
        "https://github.com/python/cpython/issues/87971 (behind the #263 hang this harness was built for)",
        "executor_wedge",
        names.EXECUTOR_WEDGED,
        tree=True,
    ),
    RealBug(
        "polars-fork",
        "polars: fork after its thread pools started, then a query in the child",
        "https://docs.pola.rs/user-guide/misc/multiprocessing/",
        "polars_fork",
        names.FORK_AFTER_INIT,
        packages=("polars==1.44.2",),
    ),
    RealBug(
        "libgomp-fork",
        "GNU OpenMP: a parallel region in a child forked after a team ran",
        "https://gcc.gnu.org/bugzilla/show_bug.cgi?id=60035",
        "gomp_fork",
        names.FORK_AFTER_INIT,
    ),
    RealBug(
        "sklearn-fork",
        "scikit-learn: KMeans in a child forked after KMeans ran (its wheel bundles libgomp)",
        "https://scikit-learn.org/stable/faq.html#why-do-i-sometime-get-a-crash-freeze-with-n-jobs-1-under-osx-or-linux",
        "sklearn_fork",
        names.FORK_AFTER_INIT,
        packages=(
            "scikit-learn==1.5.2",
            "numpy==2.4.6",
            "scipy==1.17.1",
            "joblib==1.6.0",
            "threadpoolctl==3.8.0",
        ),
    ),
    RealBug(
        "polars-to-pandas-threads",
        "polars 1.40.1 (PyO3): DataFrame.to_pandas from ten threads; a GIL <-> RwLock inversion",
        "https://github.com/pola-rs/polars/issues/27396 (fixed by https://github.com/pola-rs/polars/pull/27451)",
        "polars_to_pandas",
        names.GIL_LOCK_INVERSION,
        packages=("polars==1.40.1", "pandas==3.1.1", "pyarrow==26.0.1", "numpy==2.4.6"),
        control_packages=("polars==1.41.1", "pandas==3.1.1", "pyarrow==26.0.1", "numpy==2.4.6"),
    ),
    RealBug(
        "pyarrow-exit-threadpool",
        "pyarrow 26.0.1: leave a fragment's batch loop early; Arrow's thread-pool destructor hangs at exit",
        "https://github.com/apache/arrow/issues/45214 (workaround: use_threads=False)",
        "pyarrow_exit",
        names.EXIT_DESTRUCTOR,
        packages=("pyarrow==26.0.1",),
    ),
    RealBug(
        "gil-native-lock",
        "the GIL's holder blocks on a native lock whose holder waits for the GIL (PyO3's OnceLock/Mutex FAQ)",
        "https://pyo3.rs/v0.24.2/faq",
        "gil_native_lock",
        names.GIL_LOCK_INVERSION,
    ),
    RealBug(
        "fork-with-held-lock",
        "fork() while another thread holds a lock; the child acquires it",
        "https://github.com/python/cpython/issues/50970",
        "fork_held_lock",
        names.FORK_HELD_LOCK,
    ),
    RealBug(
        "atfork-handler-lock",
        "a native fork handler (pthread_atfork) takes, in the child, a lock another thread held",
        "https://pubs.opengroup.org/onlinepubs/9699919799/functions/pthread_atfork.html",
        "atfork_lock",
        names.FORK_HELD_LOCK,
    ),
    RealBug(
        "preexec-fn-lock",
        "subprocess: a preexec_fn takes a lock another thread holds",
        "https://docs.python.org/3/library/subprocess.html#popen-constructor",
        "preexec_lock",
        names.FORK_HELD_LOCK,
    ),
    RealBug(
        "exit-joins-non-daemon",
        "interpreter exit joins a non-daemon thread that never ends",
        "https://docs.python.org/3/library/threading.html#thread-objects",
        "exit_nondaemon",
        names.EXIT_HANG,
    ),
    RealBug(
        "queue-join-no-task-done",
        "queue.Queue.join() with a consumer that never calls task_done()",
        "https://docs.python.org/3/library/queue.html#queue.Queue.join",
        "queue_join",
        names.QUEUE_JOIN,
    ),
    # -- spins: a thread burns CPU waiting for something that cannot come (verdict livelock)
    RealBug(
        "duckdb-fsspec-gil-spin",
        "duckdb 1.2.1: from_parquet over a Python fsspec filesystem spins with the GIL held; its "
        "scheduler threads wait for the GIL to open the files",
        "https://github.com/duckdb/duckdb/issues/16501 (fixed in 1.2.2 by https://github.com/duckdb/duckdb/pull/16522)",
        "duckdb_fsspec",
        names.GIL_SPIN,
        packages=("duckdb==1.2.1", "fsspec==2025.2.0"),
        control_packages=("duckdb==1.2.2", "fsspec==2025.2.0"),
        verdict="livelock",
        shape="spin",
    ),
    RealBug(
        "duckdb-pandas-gil-spin",
        "duckdb 0.6.1: write_csv of a pandas relation with an object column drives the pipeline "
        "with the GIL held; the scan task waits for the GIL",
        "https://github.com/duckdb/duckdb/pull/6179 (fixed in 0.7.0 by https://github.com/duckdb/duckdb/pull/6186)",
        "duckdb_pandas_gil",
        names.GIL_SPIN,
        packages=("duckdb==0.6.1", *_DUCKDB_PANDAS_DEPS),
        control_packages=("duckdb==0.7.0", *_DUCKDB_PANDAS_DEPS),
        verdict="livelock",
        python="3.10",
        shape="spin",
    ),
    RealBug(
        "onnxruntime-fork",
        "onnxruntime 1.20.1: a forked child runs a parallel-executor session made in the parent; "
        "it spins waiting for inter-op pool threads fork() did not copy",
        "https://github.com/microsoft/onnxruntime/issues/9800 (workaround: create sessions after fork, "
        "https://github.com/microsoft/onnxruntime/pull/31961)",
        "ort_fork",
        names.FORK_AFTER_INIT,
        packages=(
            "onnxruntime==1.20.1",
            "onnx==1.17.0",
            "numpy==1.26.4",
            "coloredlogs==15.0.1",
            "flatbuffers==25.12.19",
            "humanfriendly==10.0",
            "mpmath==1.3.0",
            "packaging==26.4",
            "protobuf==7.36.2",
            "sympy==1.14.0",
        ),
        verdict="livelock",
        shape="spin",
    ),
    RealBug(
        "numba-tbb-fork-handler",
        "numba 0.51.2 + TBB 2020: fork() while another thread ran a parallel function; numba's "
        "prepare handler spins in sched_yield for that thread's TBB scheduler",
        "https://github.com/numba/numba/issues/5983 (control: numba 0.54.1 with oneTBB 2021.4)",
        "numba_tbb_fork",
        names.FORK_HANDLER,
        packages=("numba==0.51.2", "llvmlite==0.34.0", "tbb==2020.0.133", "numpy==1.19.5"),
        control_packages=("numba==0.54.1", "llvmlite==0.37.0", "tbb==2021.4.0", "numpy==1.19.5"),
        verdict="livelock",
        python="3.8",
        shape="spin",
    ),
    RealBug(
        "faiss-fork-active-wait",
        "faiss-cpu 1.13.2 (libgomp) with OMP_WAIT_POLICY=ACTIVE: a search in a forked child spins "
        "at the OpenMP barrier for threads fork() did not copy",
        "https://github.com/facebookresearch/faiss/issues/5206 (workaround: OMP_NUM_THREADS=1; "
        "https://gcc.gnu.org/onlinedocs/libgomp/GOMP_005fSPINCOUNT.html)",
        "faiss_fork_active",
        names.FORK_AFTER_INIT,
        packages=("faiss-cpu==1.13.2", "numpy==2.2.6", "packaging==26.4"),
        verdict="livelock",
        python="3.12",
        env=(("OMP_WAIT_POLICY", "ACTIVE"),),
        shape="spin",
    ),
    RealBug(
        "pool-result-unpickle-spin",
        "multiprocessing.Pool: the result handler dies on an exception it cannot unpickle; the "
        "worker handler spins on the results left in the pipe",
        "https://github.com/python/cpython/issues/79492 (bpo-35311; same: https://github.com/python/cpython/issues/103061)",
        "result_unpickle",
        names.LOST_RESULTS,
        tree=True,
        verdict="livelock",
        shape="spin",
        args=("spin",),
    ),
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
NAMES = tuple(b.name for b in CATALOGUE)
