"""Real bugs as positive controls: documented hangs in Python and PyPI packages, each with the
documented fix or workaround as its control (`gvlstress selftest --real`).

Each entry's trigger (a standalone program in ``controls/bugs``) puts a real process into the
hang and prints ``look PID`` and ``ready``; the harness inspects that process as a user would
and expects the verdict ``deadlock`` (exit 1) and the entry's pattern. ``PROGRAM control`` runs
the fixed variant, which must finish with exit 0. Entries with packages run in an interpreter
that has exactly the pinned versions: this one if it does, else a venv built once in the cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gvlstress.judge import patterns

BUGS_DIR = Path(__file__).parent / "bugs"
NO_RUNTIME = 4
"""A trigger's exit code when this host lacks what it needs (a skip, never a failure)."""


@dataclass(frozen=True)
class RealBug:
    name: str
    title: str
    source: str
    """The public report or documentation of the hang."""
    program: str
    pattern: str
    packages: tuple[str, ...] = ()
    """Pinned requirements (``name==version``) beyond the standard library."""
    tree: bool = False
    """Inspect the process with its descendants (the hang spans processes)."""
    control_packages: tuple[str, ...] | None = None
    """The control's pins when the fix is a release (None: the trigger's, the fix is in the code)."""

    @property
    def script(self) -> Path:
        return BUGS_DIR / f"{self.program}.py"


CATALOGUE: tuple[RealBug, ...] = (
    RealBug(
        "mp-join-before-get",
        "multiprocessing: join() a child before get() of the large item it queued",
        "https://docs.python.org/3/library/multiprocessing.html#multiprocessing-programming",
        "mp_join_before_get",
        patterns.JOIN_BEFORE_DRAIN,
        tree=True,
    ),
    RealBug(
        "threadpool-nested-future",
        "concurrent.futures: a task waits for a future of its own one-worker pool",
        "https://docs.python.org/3/library/concurrent.futures.html#threadpoolexecutor",
        "threadpool_nested",
        patterns.THREAD_POOL_EXHAUSTION,
    ),
    RealBug(
        "import-spawns-and-joins",
        "threading: a module's import starts a thread that imports it, and joins it",
        "https://docs.python.org/3/library/threading.html#importing-in-threaded-code",
        "import_thread_join",
        patterns.IMPORT_LOCK,
    ),
    RealBug(
        "executor-killed-mid-send",
        "ProcessPoolExecutor: a worker SIGKILLed while sending a large result wedges it",
        "https://github.com/mcvickerlab/GenVarLoader/issues/263 (mechanism: "
        "https://github.com/python/cpython/issues/87971)",
        "executor_wedge",
        patterns.EXECUTOR_WEDGED,
        tree=True,
    ),
    RealBug(
        "polars-fork",
        "polars: fork after its thread pools started, then a query in the child",
        "https://docs.pola.rs/user-guide/misc/multiprocessing/",
        "polars_fork",
        patterns.FORK_AFTER_INIT,
        packages=("polars==1.44.2",),
    ),
    RealBug(
        "libgomp-fork",
        "GNU OpenMP: a parallel region in a child forked after a team ran",
        "https://gcc.gnu.org/bugzilla/show_bug.cgi?id=60035",
        "gomp_fork",
        patterns.FORK_AFTER_INIT,
    ),
    RealBug(
        "sklearn-fork",
        "scikit-learn: KMeans in a child forked after KMeans ran (its wheel bundles libgomp)",
        "https://scikit-learn.org/stable/faq.html#why-do-i-sometime-get-a-crash-freeze-with-n-jobs-1-under-osx-or-linux",
        "sklearn_fork",
        patterns.FORK_AFTER_INIT,
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
        patterns.GIL_LOCK_INVERSION,
        packages=("polars==1.40.1", "pandas==3.1.1", "pyarrow==26.0.1", "numpy==2.4.6"),
        control_packages=("polars==1.41.1", "pandas==3.1.1", "pyarrow==26.0.1", "numpy==2.4.6"),
    ),
    RealBug(
        "pyarrow-exit-threadpool",
        "pyarrow 26.0.1: leave a fragment's batch loop early; Arrow's thread-pool destructor hangs at exit",
        "https://github.com/apache/arrow/issues/45214 (workaround: use_threads=False)",
        "pyarrow_exit",
        patterns.EXIT_DESTRUCTOR,
        packages=("pyarrow==26.0.1",),
    ),
    RealBug(
        "gil-native-lock",
        "the GIL's holder blocks on a native lock whose holder waits for the GIL (PyO3's OnceLock/Mutex FAQ)",
        "https://pyo3.rs/v0.24.2/faq",
        "gil_native_lock",
        patterns.GIL_LOCK_INVERSION,
    ),
    RealBug(
        "fork-with-held-lock",
        "fork() while another thread holds a lock; the child acquires it",
        "https://github.com/python/cpython/issues/50970",
        "fork_held_lock",
        patterns.FORK_HELD_LOCK,
    ),
    RealBug(
        "atfork-handler-lock",
        "a native fork handler (pthread_atfork) takes, in the child, a lock another thread held",
        "https://pubs.opengroup.org/onlinepubs/9699919799/functions/pthread_atfork.html",
        "atfork_lock",
        patterns.FORK_HELD_LOCK,
    ),
    RealBug(
        "preexec-fn-lock",
        "subprocess: a preexec_fn takes a lock another thread holds",
        "https://docs.python.org/3/library/subprocess.html#popen-constructor",
        "preexec_lock",
        patterns.FORK_HELD_LOCK,
    ),
    RealBug(
        "exit-joins-non-daemon",
        "interpreter exit joins a non-daemon thread that never ends",
        "https://docs.python.org/3/library/threading.html#thread-objects",
        "exit_nondaemon",
        patterns.EXIT_HANG,
    ),
    RealBug(
        "queue-join-no-task-done",
        "queue.Queue.join() with a consumer that never calls task_done()",
        "https://docs.python.org/3/library/queue.html#queue.Queue.join",
        "queue_join",
        patterns.QUEUE_JOIN,
    ),
)
NAMES = tuple(b.name for b in CATALOGUE)


@dataclass(frozen=True)
class Outcome:
    """One entry on this host: the trigger's inspection and the control's run."""

    bug: RealBug
    skipped: str | None = None
    """Why the entry could not run here (a missing runtime); None when it ran."""
    verdict: str | None = None
    pattern: str | None = None
    summary: str = ""
    inspect_s: float | None = None
    """Seconds `inspect` took on the hung process."""
    control_clean: bool | None = None
    control_note: str = ""
    control_s: float | None = None
    error: str | None = None
    """The trigger never reached its hang (it printed this)."""

    @property
    def caught(self) -> bool:
        return self.verdict == "deadlock"

    @property
    def named(self) -> bool:
        return self.caught and self.pattern == self.bug.pattern

    @property
    def passed(self) -> bool:
        return self.skipped is not None or (self.named and self.control_clean is True)


@dataclass(frozen=True)
class RealBugsResult:
    outcomes: tuple[Outcome, ...]
    run_dir: str

    @property
    def passed(self) -> bool:
        return all(o.passed for o in self.outcomes)


def select(names: tuple[str, ...] | None) -> tuple[RealBug, ...]:
    """The entries named (all by default), in catalogue order."""
    return tuple(b for b in CATALOGUE if not names or b.name in names)


def as_dict(result: RealBugsResult) -> dict[str, object]:
    return {
        "run_dir": result.run_dir,
        "passed": result.passed,
        "entries": [
            {
                "name": o.bug.name,
                "title": o.bug.title,
                "source": o.bug.source,
                "packages": list(o.bug.packages),
                "control_packages": list(o.bug.control_packages or o.bug.packages),
                "expected_pattern": o.bug.pattern,
                "skipped": o.skipped,
                "verdict": o.verdict,
                "pattern": o.pattern,
                "caught": o.caught,
                "named": o.named,
                "summary": o.summary,
                "inspect_s": o.inspect_s,
                "control_clean": o.control_clean,
                "control_note": o.control_note,
                "control_s": o.control_s,
                "error": o.error,
            }
            for o in result.outcomes
        ],
    }
