"""The catalogue's cycles: real bugs whose threads or processes wait on each other, each for
what the next holds (a join before a drain, a task waiting on its own pool, the GIL against a
native lock, a lock copied held into a forked child, an exit that joins what never ends).

The classic deadlock, and the default shape of an entry (``shape="cycle"``): `inspect` must say
``deadlock`` and name the pattern that closes the cycle.
"""

from __future__ import annotations

from gvlstress.judge import names
from gvlstress.model.controls import RealBug
from gvlstress.model.waitfor import End

CYCLES: tuple[RealBug, ...] = (
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
        end=End.SELF,  # its only worker waits for a task queued behind itself
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
)
