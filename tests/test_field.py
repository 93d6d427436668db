"""The field corpus as a release gate: healthy programs in the shapes real jobs have are never
called a hang, by ``watch``, ``inspect --tree`` or the pytest plugin, alone or under load.

Each program in tests/support/field/ is a small standalone job on the real library (a pool
computing, an executor over spawn computing in numpy, an idle asyncio server, a subprocess
pipeline, a pytest run inside a job...; `FIELD` lists them). It prints `ready` once its shape is
in place and holds it for ``FIELD_SECONDS`` (at most 60 s), then ends by itself with 0. One run
of a program:

- it is started under ``gvlstress watch --stall 3 --on-hang kill``;
- while it runs, ``inspect --tree`` judges its root (the pid watch started) three times, one
  after the other (once by default: see below);
- once they are done, and watch had the time for three looks if the job went quiet (after 3, 6
  and 12 s of quiet: a program that makes progress all along is never looked at, which is fine),
  watch is sent SIGTERM: it passes it to the job and writes its report (the run lasts what the
  inspects need, not a fixed hold);
- the gate: no hang verdict from anyone (watch's looks and report, each inspect's every process:
  `Verdict.is_hang`, read from the JSON they write), watch killed nothing, each inspect exited 0,
  and nothing of the job is left running.

Every program runs once alone and once beside two CPU burners, with three inspects, when
``GVLSTRESS_FIELD_FULL=1`` (the release gate: about 30 minutes at ``-n 3``); by default (CI) each
program runs once, alone or beside the burners in turn, with one inspect (about 5 minutes). A handful of the most typical
ones also run as a test under the pytest plugin (``--gvlstress-watch=3``): no hang report.
Programs on a package that is not a test dependency run in a venv of pinned releases built once
in the cache (``-m pypi``, as the catalogue's pinned entries).

The rows (what each look said) go to the report directory; ``GVLSTRESS_FIELD=PATH`` writes them
into the documentation's page (docs/reference/field.md): each test replaces its own row under a
lock, so xdist workers and partial runs update the page together. ``GVLSTRESS_FIELD_FAILURES=DIR``
copies the reports of a failing run to DIR/PROGRAM/LOAD.

The programs are split over this file and tests/test_field_b.py, test_field_c.py (`share`), so
``--dist loadfile`` runs them three at a time (the full gate); CI's slow pass runs them in two
xdist groups, two runs at a time at most beside its other tests (tests/scheduling.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import psutil
import pytest

from conftest import GVL, SUPPORT, cli_env, run_cli, wait_for
from gvlstress.api import realbugs
from gvlstress.model.verdicts import Verdict
from gvlstress.probes.interpreter import interpreter, satisfied

# CI: two xdist groups (test_field.py; test_field_b.py with test_field_c.py): at most two runs,
# and two runs' burners, at a time beside the rest: each "2 burners" run loads the whole host
# (tests/scheduling.py)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(300),
    pytest.mark.ci_seconds(18),
    pytest.mark.xdist_group("field-a"),
]

FIELD_DIR = SUPPORT / "field"
STALL_S = 3
WATCH_S_FULL, WATCH_S_CI = 16.0, 9.0
"""How long a run lasts at least after `ready`: a job quiet from `ready` on is looked at by watch
at 3, 6 and 12 s of quiet, each look taking a second or two: three looks in the full gate, two
in CI's (the slow tier's time is CI's budget). A run lasts longer when its inspects take longer
(each takes 4 to 10 s on a tree of 4 processes)."""
MAX_HOLD_S = 58.0
"""How long a program holds its shape at most (the run ends it before)."""
PLUGIN_HOLD_S = 12.0
READY_S = 90.0
BURNERS = 2
BEGIN, END = "<!-- field table: begin -->", "<!-- field table: end -->"
PLUGIN_BEGIN, PLUGIN_END = "<!-- field plugin table: begin -->", "<!-- field plugin table: end -->"

PYPI = (
    "scikit-learn==1.9.1",
    "duckdb==2.0.0",
    "tokenizers==0.23.3",
    "dask==2026.8.0",
    "numpy==2.4.6",
    "scipy==1.17.1",
    "joblib==1.6.0",
    "threadpoolctl==3.8.0",
)
"""The one pinned set of the programs on packages that are not test dependencies: one venv for
all of them, built once in the cache."""


@dataclass(frozen=True)
class Program:
    name: str
    shape: str
    library: str
    """The library whose code makes the shape ('multiprocessing', 'numpy', 'duckdb'...)."""
    packages: tuple[str, ...] = ()
    """Pinned packages beyond the test dependencies (a venv built once when this interpreter
    lacks them: ``-m pypi``)."""
    share: int = 0
    """Which test file runs it (test_field.py: 0, test_field_b.py: 1, test_field_c.py: 2)."""

    @property
    def path(self) -> Path:
        return FIELD_DIR / f"{self.name}.py"

    @property
    def version(self) -> str:
        """The library's pinned release, else the one this interpreter has (stdlib: Python's)."""
        pin = next((p for p in self.packages if p.partition("==")[0] == self.library), None)
        if pin:
            return pin
        with contextlib.suppress(metadata.PackageNotFoundError):
            return f"{self.library}=={metadata.version(self.library)}"
        return f"{self.library} (Python {sys.version.split()[0]})"


def _p(name: str, shape: str, library: str, *packages: str) -> Program:
    return Program(name, shape, library, packages)


FIELD_LIST = [
    _p("mp_pool_fork_python", "Pool(2) over fork, both workers computing in Python", "multiprocessing"),
    _p("mp_pool_spawn_numpy", "Pool(2) over spawn, both workers computing in numpy", "numpy"),
    _p("mp_pool_forkserver_python", "Pool(2) over forkserver computing in Python", "multiprocessing"),
    _p("mp_pool_imap_stream", "Pool(2) over spawn, imap_unordered over many small numpy tasks", "numpy"),
    _p("mp_pool_sleeping_tasks", "Pool(3) over fork whose tasks sleep (I/O-bound work)", "multiprocessing"),
    _p(
        "mp_pool_forkserver_sleeping",
        "Pool(2) over forkserver whose tasks sleep; the launcher in an untimed map()",
        "multiprocessing",
    ),
    _p("mp_process_join_compute", "two Processes (fork) computing; the parent in join()", "multiprocessing"),
    _p(
        "mp_queue_slow_producer",
        "a consumer in Queue.get() behind a slow producer Process",
        "multiprocessing",
    ),
    _p(
        "mp_queue_backpressure",
        "a producer blocked in a full Queue.put() behind a slow consumer",
        "multiprocessing",
    ),
    _p(
        "mp_manager_shared_dict",
        "a Manager's server process and two workers updating its dict",
        "multiprocessing",
    ),
    _p(
        "mp_pipe_request_reply",
        "a parent in Pipe.recv() while its child computes the reply",
        "multiprocessing",
    ),
    _p("ppe_spawn_numpy", "ProcessPoolExecutor over spawn computing in numpy", "numpy"),
    _p("ppe_fork_python", "ProcessPoolExecutor over fork computing in Python", "concurrent.futures"),
    _p(
        "ppe_forkserver_sleep",
        "ProcessPoolExecutor over forkserver, tasks sleeping, as_completed()",
        "concurrent.futures",
    ),
    _p(
        "thread_pool_python",
        "ThreadPoolExecutor(4) computing in Python (GIL contention)",
        "concurrent.futures",
    ),
    _p("thread_pool_numpy", "ThreadPoolExecutor(4) in numpy matmuls (GIL released)", "numpy"),
    _p(
        "thread_prefetch_queue",
        "a loader thread blocked on a full queue.Queue, the consumer sleeping",
        "threading",
    ),
    _p("numpy_blas_threads", "OpenBLAS with 4 threads on 2 cores, matmul loop", "numpy"),
    _p("numba_parallel", "numba parallel=True prange loop (its own thread pool)", "numba", "numba==0.68.1"),
    _p("polars_groupby", "polars lazy group_by over 2M rows, over and over", "polars"),
    _p("polars_spawn_pool", "Pool(2) over spawn, polars queries in each worker", "polars"),
    _p(
        "pyarrow_compute",
        "pyarrow compute (sort, group_by, parquet round trip)",
        "pyarrow",
        "pyarrow==24.0.0",
    ),
    _p(
        "joblib_loky_python",
        "joblib Parallel(n_jobs=2) on loky, computing in Python",
        "joblib",
        "joblib==1.6.0",
    ),
    _p("joblib_loky_numpy", "joblib Parallel(n_jobs=2) on loky, numpy tasks", "joblib", "joblib==1.6.0"),
    _p("asyncio_server_idle", "an asyncio TCP server nobody connects to", "asyncio"),
    _p("asyncio_client_long_poll", "an asyncio client reading a server process that answers late", "asyncio"),
    _p("http_server_idle", "http.server ThreadingHTTPServer waiting for requests", "http.server"),
    _p("http_client_slow_server", "urllib requests to a server process that takes 5 s per reply", "urllib"),
    _p(
        "subprocess_pipeline",
        "a pipeline: slow producer | gzip | sha256sum, the parent in wait()",
        "subprocess",
    ),
    _p(
        "subprocess_slow_step",
        "a CI step waiting on a slow command (subprocess.run with a timeout)",
        "subprocess",
    ),
    _p("pytest_in_job", "a pytest run inside a job, its test sleeping and computing", "pytest"),
    _p("compress_hash_threads", "zlib, lzma and sha256 in 3 threads (GIL released)", "zlib"),
    _p("zstd_threads", "zstandard compression with 2 worker threads", "zstandard", "zstandard==0.25.0"),
    _p(
        "rayon_oversubscribed",
        "the built-in rayon loader, RAYON_NUM_THREADS=16 on 2 cores",
        "gvlstress_native",
    ),
    _p("rayon_spawn_pool", "the rayon loader in 2 spawned Pool workers, 8 threads each", "gvlstress_native"),
    _p("checkpoint_write", "a long checkpoint write (numpy.save in chunks, fsync)", "numpy"),
    _p("stdin_wait", "a job waiting for a line on stdin", "sys"),
    _p(
        "terminal_prompt", "a child waiting at a prompt on its terminal (a pty), the parent reading it", "pty"
    ),
    _p("sqlite_query", "sqlite3 aggregate queries over a 1M-row table", "sqlite3"),
    _p("sklearn_random_forest", "RandomForestClassifier(n_jobs=2).fit (threads)", "scikit-learn", *PYPI),
    _p("sklearn_grid_search", "GridSearchCV(n_jobs=2) on loky worker processes", "scikit-learn", *PYPI),
    _p("sklearn_kmeans_openmp", "KMeans on OpenMP threads", "scikit-learn", *PYPI),
    _p("duckdb_query", "duckdb aggregate and join queries on 4 threads", "duckdb", *PYPI),
    _p("tokenizers_batch", "tokenizers: a BPE trained in memory, encode_batch (rayon)", "tokenizers", *PYPI),
    _p("dask_threads", "dask.array on the local threaded scheduler", "dask", *PYPI),
    _p("dask_processes", "dask.bag on the local multiprocessing scheduler", "dask", *PYPI),
]
FIELD = [Program(p.name, p.shape, p.library, p.packages, i % 3) for i, p in enumerate(FIELD_LIST)]
"""The corpus, in the docs' order; each program's test file (`share`) round-robin."""
PLUGIN = [
    "mp_pool_fork_python",
    "ppe_spawn_numpy",
    "thread_pool_python",
    "asyncio_server_idle",
    "subprocess_pipeline",
    "mp_queue_backpressure",
]
"""The most typical shapes, also run as a test under the pytest plugin."""
LOADS = {"alone": 0, "2 burners": BURNERS}
FULL = os.environ.get("GVLSTRESS_FIELD_FULL") == "1"
"""The whole release gate (each program alone and beside two burners, three inspects a run);
by default (CI) each program runs once, alone or loaded in turn, with one inspect a run: the
same programs and the same verdicts, in a fifth of the time."""
WATCH_S = WATCH_S_FULL if FULL else WATCH_S_CI
INSPECTS = int(os.environ.get("GVLSTRESS_FIELD_INSPECTS", "3" if FULL else "1"))
"""Inspects a run (``GVLSTRESS_FIELD_INSPECTS=N`` sets it: the full gate's two loads with one
inspect each, when time is short)."""
PAGE = Path(os.environ["GVLSTRESS_FIELD"]).resolve() if os.environ.get("GVLSTRESS_FIELD") else None
"""The docs' page to write the rows into (read once: the plugin's tests change directory)."""
FAILURES = (
    Path(os.environ["GVLSTRESS_FIELD_FAILURES"]).resolve()
    if os.environ.get("GVLSTRESS_FIELD_FAILURES")
    else None
)


def params(share: int) -> list[Any]:
    """This file's programs x (alone, beside two burners); those whose pins this environment
    lacks are ``pypi``."""
    out = []
    for p in FIELD:
        if p.share != share:
            continue
        marks = () if satisfied(p.packages) else (pytest.mark.pypi, pytest.mark.timeout(1800))
        loads = list(LOADS) if FULL else [list(LOADS)[FIELD.index(p) % len(LOADS)]]
        out += [pytest.param(p, load, id=f"{p.name}-{load.replace(' ', '')}", marks=marks) for load in loads]
    return out


def by_name(name: str) -> Program:
    return next(p for p in FIELD if p.name == name)


# --- one run ----------------------------------------------------------------------------------


@contextlib.contextmanager
def burners(n: int, seconds: float) -> Iterator[list[int]]:
    """`n` busy-loop processes (bounded: each ends by itself after `seconds`), in a group of
    their own; running before this yields, and ended on the way out."""
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n",
            ],
            start_new_session=True,
        )
        for _ in range(n)
    ]
    try:
        wait_for(lambda: all(psutil.Process(p.pid).cpu_times().user > 0.05 for p in procs), 30, "burners")
        yield [p.pid for p in procs]
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(30)


def marked(token: str) -> list[int]:
    """Every live process whose environment carries this run's token (the job and whatever it
    started, reparented or not; watch and its tools too)."""
    needle = f"GVLSTRESS_FIELD_RUN={token}".encode()
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if needle in fh.read().split(b"\0"):
                    out.append(int(entry))
        except OSError:
            continue
    return [p for p in out if _running(p)]


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@dataclass
class Run:
    """What one run of a program said."""

    program: Program
    load: str
    lines: list[str]
    watch_code: int | None = None
    watch: dict[str, Any] | None = None
    inspects: list[tuple[int | None, dict[str, Any] | None, str]] | None = None
    """(exit code, inspect.json or None, output tail) of each `inspect --tree`; (None, None, why)
for one not run because the job had ended by itself (its hold is bounded)."""
    left: list[str] | None = None
    """Processes of the job still running a while after watch ended."""
    seconds: float = 0.0
    stopped: bool = False
    """The job still held its shape when the run was over: watch was sent SIGTERM."""

    @property
    def hangs(self) -> list[str]:
        """Every hang verdict any command gave, as text ([] for a clean run)."""
        out = []
        if self.watch is not None and self.watch.get("hang"):
            out.append(f"watch: {_hang_text(self.watch['hang'])} ({self.watch.get('action')})")
        if self.watch is not None:
            out += [
                f"watch's look after {q['quiet_s']:.1f}s quiet: {q['verdict']}: {q['summary']}"
                for q in self.watch["quiet"]
                if q["hang"] or is_hang(q["verdict"])
            ]
        for i, (code, data, _) in enumerate(self.inspects or [], 1):
            if data is None:
                continue
            bad = [p for p in data["processes"] if is_hang(p["diagnosis"]["verdict"])]
            out += [f"inspect {i}: pid {p['pid']}: {p['diagnosis']['summary']}" for p in bad]
            if code == 1 and not bad:
                out.append(f"inspect {i}: exit 1")
        return out


HANGS = frozenset({Verdict.DEADLOCK.value, Verdict.LIVELOCK.value})
"""What a look stands behind as a hang (what watch acts on, what makes inspect exit 1).
``stalled`` is a look that cannot tell (a wait on something outside, a thread running with
little CPU on a loaded host): watch looks again later and acts on nothing, so it is no alarm;
the page shows it."""


def is_hang(verdict: str) -> bool:
    """A hang verdict a look stands behind; a word outside the model (a process 'gone' during
    the look) is none."""
    return verdict in HANGS


def _hang_text(found: dict[str, Any]) -> str:
    hung = [p for p in found["processes"] if is_hang(p["diagnosis"]["verdict"])]
    return "; ".join(f"pid {p['pid']}: {p['diagnosis']['summary']}" for p in hung) or "hang"


def job_root(watch: int, program: Path) -> int:
    """The job watch started (its descendant running the program)."""

    def find() -> int | None:
        with contextlib.suppress(psutil.Error):
            for c in psutil.Process(watch).children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    if str(program) in c.cmdline():
                        return c.pid
        return None

    root: int = wait_for(find, 30, f"the job of watch {watch}")
    return root


def inspect_tree(pid: int, out: Path) -> tuple[int | None, dict[str, Any] | None, str]:
    result = run_cli(["inspect", str(pid), "--tree", "--report-dir", str(out)], timeout=240)
    out.mkdir(parents=True, exist_ok=True)
    (out / "inspect.log").write_text(result.stdout + result.stderr)
    path = next(out.glob("*/inspect.json"), None)
    data = json.loads(path.read_text()) if path is not None else None
    return result.returncode, data, (result.stdout + result.stderr)[-2000:]


def field_run(program: Program, python: str, load: str, out: Path) -> Run:
    """One run: the program under watch (beside `load`'s burners); inspect --tree on its root
    three times while it runs; once they are done and watch had the time for three looks, watch
    is sent SIGTERM (it passes it to the job, and writes its report); nothing of it is left."""
    token = uuid.uuid4().hex
    scratch = tempfile.mkdtemp(prefix="gvlstress-field-")
    env = cli_env(FIELD_SECONDS=f"{MAX_HOLD_S:g}", TMPDIR=scratch, GVLSTRESS_FIELD_RUN=token)
    cmd = [*GVL, "watch", "--stall", str(STALL_S), "--on-hang", "kill"]
    cmd += ["--report-dir", str(out / "watch"), "--", python, str(program.path)]
    started = time.monotonic()
    out.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        stack.callback(shutil.rmtree, scratch, ignore_errors=True)
        stack.callback(_keep_internal_errors, Path(scratch), out)
        stack.callback(lambda: _kill(marked(token)))
        stack.enter_context(burners(LOADS[load], MAX_HOLD_S + READY_S + 120))
        with open(out / "watch.stderr", "wb") as err:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                start_new_session=True,
                env=env,
            )
        stack.callback(_end_watch, proc)
        lines = realbugs.handshake(proc, READY_S)
        run = Run(program, load, lines)
        if "ready" not in lines:  # watch may have found a hang (and killed the job) before `ready`
            with contextlib.suppress(subprocess.TimeoutExpired):
                run.watch_code = proc.wait(timeout=30)
            report = next((out / "watch").glob("*/watch.json"), None)
            run.watch = json.loads(report.read_text()) if report is not None else None
            return run
        ready = time.monotonic()
        root = job_root(proc.pid, program.path)
        run.inspects = []
        for i in range(1, INSPECTS + 1):
            looked = inspect_tree(root, out / f"inspect-{i}") if proc.poll() is None else None
            if looked is not None and looked[0] == 2:  # the root gone: has the job ended by itself?
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=5)
            if looked is None or (looked[0] == 2 and proc.poll() is not None):
                looked = (None, None, "not run: the job had ended by itself")  # a slow inspect, a loaded host
            run.inspects.append(looked)
        with contextlib.suppress(subprocess.TimeoutExpired):  # a wait on watch's end, bounded
            proc.wait(timeout=max(0.0, ready + WATCH_S - time.monotonic()))
        if proc.poll() is None:
            run.stopped = True
            os.kill(proc.pid, signal.SIGTERM)
        try:
            run.watch_code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            run.watch_code = None
        report = next((out / "watch").glob("*/watch.json"), None)
        run.watch = json.loads(report.read_text()) if report is not None else None
        run.left = [_cmdline(p) for p in _leftovers(token, 15.0)]
        run.seconds = time.monotonic() - started
        return run
    raise AssertionError("unreachable")  # the ExitStack does not swallow exceptions


def _keep_internal_errors(scratch: Path, out: Path) -> None:
    """gvlstress writes an internal error's traceback to TMPDIR (the run's scratch): kept."""
    for f in scratch.glob("gvlstress-internal-error-*"):
        shutil.copy(f, out / f.name)


def _leftovers(token: str, timeout: float) -> list[int]:
    """What of the run still runs `timeout` seconds after watch ended ([] as soon as nothing
    is): a resource tracker takes a moment to see its pipe close."""
    end = time.monotonic() + timeout
    while (left := marked(token)) and time.monotonic() < end:
        time.sleep(0.2)  # the polling interval of a bounded /proc poll
    return left


def _cmdline(pid: int) -> str:
    try:
        return f"{pid}: " + " ".join(psutil.Process(pid).cmdline())[:200]
    except psutil.Error:
        return f"{pid}: gone"


def _end_watch(proc: subprocess.Popen[bytes]) -> None:
    """watch ends the job's tree on SIGTERM and writes its report; then its own group goes."""
    with contextlib.suppress(ValueError, OSError):
        if proc.stdin is not None:
            proc.stdin.close()
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)
    realbugs.end_group(proc)


# --- the table --------------------------------------------------------------------------------


def looks(run: Run) -> str:
    """Watch's looks, as 'quiet 3s: idle; quiet 7s: busy', or why there were none."""
    if run.watch is None:
        return f"no report (watch exit {run.watch_code})"
    said = [
        f"{q['quiet_s']:.0f}s " + (f"**{q['verdict']}**" if is_hang(q["verdict"]) else q["verdict"])
        for q in run.watch["quiet"]
    ]
    if run.watch.get("hang"):
        found = run.watch["hang"]
        hung = [p for p in found["processes"] if is_hang(p["diagnosis"]["verdict"])]
        pattern = next((p["diagnosis"]["pattern"] or p["diagnosis"]["verdict"] for p in hung), "hang")
        said.append(f"**HANG: {pattern}** ({run.watch.get('action')})")
    return "; ".join(said) or "none: progress all along"


def verdict_counts(data: dict[str, Any] | None, code: int | None) -> str:
    """One inspect's verdicts over the tree: 'idle x3, busy x2' (exit code when not 0)."""
    if code is None:
        return "not run: the job had ended"
    if data is None:
        return f"no report (exit {code})"
    seen: dict[str, int] = {}
    for p in data["processes"]:
        seen[p["diagnosis"]["verdict"]] = seen.get(p["diagnosis"]["verdict"], 0) + 1
    text = ", ".join(
        f"**{v}**" + (f" x{n}" if n > 1 else "") if is_hang(v) else v + (f" x{n}" if n > 1 else "")
        for v, n in seen.items()
    )
    return text if code == 0 else f"{text} (exit {code})"


def row(run: Run) -> list[str]:
    p = run.program
    inspects = [verdict_counts(d, c) for c, d, _ in run.inspects or []]
    inspects += ["not run"] * (3 - len(inspects))
    ok = not run.hangs and not problems(run)
    took = f"{run.seconds:.0f}s" + ("" if run.stopped else ", ended by itself")
    return [p.name, p.shape, p.version, run.load, looks(run), *inspects, took, "ok" if ok else "**no**"]


def problems(run: Run) -> list[str]:
    """What went wrong besides a hang verdict: watch did not end as it should (the job killed,
    or ended by itself with an error), an inspect could not judge, something left running."""
    out = []
    if run.watch is None:
        out.append(f"watch wrote no watch.json (exit {run.watch_code})")
    elif run.watch["action"] is not None:
        out.append(f"watch acted on the job: {run.watch['action']}")
    elif run.watch["exit_code"] == 0 and run.watch["stopped_by"] is None:
        pass  # the job ended by itself with 0 (maybe as our SIGTERM went out: watch's exit is then ours)
    elif run.stopped:  # the run ended it: watch passed our SIGTERM on, and said so
        if (run.watch_code, run.watch["stopped_by"]) != (143, "SIGTERM"):
            out.append(f"watch exit {run.watch_code}, stopped by {run.watch['stopped_by']} after our SIGTERM")
    elif (run.watch_code, run.watch["exit_code"]) != (0, 0):  # it ended by itself: with 0
        out.append(f"the job ended by itself with {run.watch['exit_code']} (watch exit {run.watch_code})")
    out += [
        f"inspect {i} exited {code}: {said}"
        for i, (code, data, said) in enumerate(run.inspects or [], 1)
        if code is not None and (code != 0 or data is None)
    ]
    if run.left:
        out.append(f"left running: {run.left}")
    return out


HEADER = [
    "program",
    "shape",
    "library",
    "load",
    "`watch` looks (quiet for: verdict)",
    "`inspect --tree` 1",
    "`inspect --tree` 2",
    "`inspect --tree` 3",
    "run",
    "healthy",
]
PLUGIN_HEADER = ["program", "load", "the test", "plugin's hang reports", "healthy"]


def write_row(
    report_dir: Path, cells: list[str], begin: str, end: str, header: list[str], load_col: int
) -> None:
    """The row in the report directory, and in the docs' page when GVLSTRESS_FIELD names it
    (the row of the same program and load replaced, under a lock: xdist workers share it)."""
    line = "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"
    report_dir.mkdir(parents=True, exist_ok=True)
    (report_dir / "field-row.md").write_text(line + "\n")
    if PAGE is None:
        return
    order = {(p.name, load): i for i, (p, load) in enumerate((p, ld) for p in FIELD for ld in LOADS)}
    with open(PAGE, "r+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        page = fh.read()
        head, _, rest = page.partition(begin)
        body, _, tail = rest.partition(end)
        rows = {_key(_cells(r), load_col): r for r in body.strip().splitlines()[2:] if r.startswith("|")}
        rows[_key(cells, load_col)] = line
        ranked = sorted(rows.items(), key=lambda kv: order.get(kv[0], len(order)))
        table = [
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            *(r for _, r in ranked),
        ]
        fh.seek(0)
        fh.write(f"{head}{begin}\n" + "\n".join(table) + f"\n{end}{tail}")
        fh.truncate()


def _key(cells: list[str], load_col: int) -> tuple[str, str]:
    """A row's program and load."""
    return cells[0], cells[load_col]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split(" | ")]


def keep_failure(run_dir: Path, program: str, load: str) -> None:
    """GVLSTRESS_FIELD_FAILURES=DIR: the reports of a failing run, kept as DIR/PROGRAM/LOAD."""
    if FAILURES is not None:
        target = FAILURES / program / load.replace(" ", "-")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(run_dir, target)


# --- the gate ---------------------------------------------------------------------------------


def field_row(program: Program, load: str, report_dir: Path) -> Run:
    """One program under one load, run, its row written and a failing run's reports kept; the
    test asserts the gate on it (0 hang verdicts, 0 kills)."""
    python, why = interpreter(program.packages)
    if python is None:
        pytest.skip(why)
    run = field_run(program, python, load, report_dir / "run")
    cells = row(run)
    write_row(report_dir, cells, BEGIN, END, HEADER, load_col=3)
    if "ready" not in run.lines:
        keep_failure(report_dir, program.name, load)
        said = "; ".join(run.hangs) or f"watch exit {run.watch_code}"
        pytest.fail(f"{program.name} did not get ready under watch (printed {run.lines}): {said}")
    if cells[-1] != "ok":
        keep_failure(report_dir, program.name, load)
    return run


@pytest.mark.parametrize(("program", "load"), params(0))
def test_a_healthy_field_program_is_never_called_a_hang(
    program: Program, load: str, report_dir: Path
) -> None:
    run = field_row(program, load, report_dir)
    # THEN no command called any process of it a hang
    assert not run.hangs, "\n".join(run.hangs)
    # AND watch killed nothing, every inspect judged the tree, and nothing was left running
    assert not problems(run), "\n".join(problems(run))


# --- under the pytest plugin --------------------------------------------------------------------

INNER = """
import importlib


def test_{name}():
    importlib.import_module({name!r}).main()
"""


def _plugin_params() -> list[Any]:
    """(program, load) for the plugin's runs: both loads in the full gate; by default (CI) the
    first three programs, one load each in turn (the plugin's own suite and test_no_false_alarm
    cover it there too)."""
    loads = list(LOADS)
    return [
        pytest.param(name, load, id=f"{name}-{load.replace(' ', '')}")
        for i, name in enumerate(PLUGIN if FULL else PLUGIN[:3])
        for load in (loads if FULL else [loads[i % len(loads)]])
    ]


@pytest.mark.parametrize(("name", "load"), _plugin_params())
def test_the_pytest_plugin_leaves_a_healthy_test_alone(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, name: str, load: str
) -> None:
    # GIVEN a test that is one of the field's typical shapes (its program's main, imported)
    pytester.makepyfile(**{f"test_{name}": INNER.format(name=name)})
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(FIELD_DIR), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("FIELD_SECONDS", f"{PLUGIN_HOLD_S:g}")
    # WHEN it runs under the plugin's 3 s watchdog (beside two burners, or alone)
    with burners(LOADS[load], PLUGIN_HOLD_S + 200):
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "--gvlstress-watch", str(STALL_S), "--gvlstress-report-dir", "out",
            timeout=180,
        )  # fmt: skip
    outcomes = result.parseoutcomes()
    reports = sorted((pytester.path / "out").glob("*/watch.json"))
    said = [
        _hang_text(json.loads(r.read_text())["hang"]) for r in reports if json.loads(r.read_text())["hang"]
    ]
    ran = ", ".join(f"{n} {k}" for k, n in outcomes.items())
    ok = not said and not reports and outcomes == {"passed": 1}
    cells = [name, load, ran, "; ".join(said) or "none", "ok" if ok else "**no**"]
    write_row(pytester.path, cells, PLUGIN_BEGIN, PLUGIN_END, PLUGIN_HEADER, load_col=1)
    if not ok:
        (pytester.path / "out").mkdir(exist_ok=True)
        (pytester.path / "out" / "pytest.out").write_text(result.stdout.str() + result.stderr.str())
        keep_failure(pytester.path / "out", name, f"plugin-{load}")
    # THEN the test passes and the watchdog wrote no hang report
    assert not said, said
    assert not reports, [str(r) for r in reports]
    result.assert_outcomes(passed=1)
