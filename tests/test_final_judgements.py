"""One judgement per process per look: a rule that looks at another process reads that process's
final judgement, never an earlier finding a later rule changed.

The field case behind it (issue 42): a ``multiprocessing.Pool(2)`` computing for 50 s, watched;
the workers' first finding is "no progress but CPU burnt" (LIVELOCK) and their final judgement
``busy`` (no rule names a spin), and the launcher was judged "blocked behind its pool's worker(s)"
from the first: a deadlock, and ``--on-hang kill`` killed a healthy job."""

from __future__ import annotations

import sys

import pytest
from rich.console import Console

from gvlstress.judge.across import Judged, judge_look, unsettled
from gvlstress.model import HostFacts, Verdict
from gvlstress.model.inspect import InspectResult
from gvlstress.model.watch import WatchResult
from gvlstress.model.wiring import Holder
from gvlstress.reporters.console.watch import print_watch, watched_test_lines
from gvlstress.reporters.markdown.watch import render_watch
from lookshapes import FOREVER, LOCK, POLL, READ, Proc, Th, World, held
from test_window_rules import APP, POOL, RECV, W1, W2, L, launcher

BASE = "/usr/lib/python3.12/concurrent/futures/_base.py"
PROCESS = "/usr/lib/python3.12/concurrent/futures/process.py"
THREADING = "/usr/lib/python3.12/threading.py"
NUMPY = "/venv/lib/python3.12/site-packages/numpy/_core/_multiarray_umath.cpython-312-x86_64-linux-gnu.so"
OPENBLAS = "/venv/lib/python3.12/site-packages/numpy.libs/libscipy_openblas64_-ff651d7f.so"

COMPUTES_IN_PYTHON = (("work", APP, 5), ("mapstar", POOL, 48), ("worker", POOL, 125))
COMPUTES_IN_NUMPY = (("work", APP, 7), ("_process_worker", PROCESS, 263))
RESULT_WAIT = (
    ("Condition.wait", THREADING, 355),
    ("Future.result", BASE, 449),
    ("_result_or_cancel", BASE, 317),
    ("Executor.map.<locals>.result_iterator", BASE, 608),
    ("main", APP, 14),
)


def computing(
    pid: int, py: tuple[tuple[str, str, int], ...], native: tuple[str, ...] = (), progress: bool = True
) -> Proc:
    """A pool worker inside its task, computing flat out the whole window (no byte moved, no page
    touched: pure arithmetic in a loop, or a BLAS kernel over arrays it already has). Under
    ``watch`` every process of the job's tree is under its progress signal, which went quiet: its
    first finding is "no progress but CPU burnt"."""
    th = Th(pid, None, state="R", cpu_ms=1950, py=py, native=native)
    return Proc(pid, (th,), parent=L, started=0.1, progress=progress)


def verdicts(judged: Judged) -> dict[int, Verdict]:
    return {pid: j.verdict for pid, j in judged.items()}


POOL_COMPUTING = World(
    (
        launcher(progress=True),
        computing(W1, COMPUTES_IN_PYTHON),
        computing(W2, COMPUTES_IN_PYTHON),
    )
)
EXECUTOR_IN_NUMPY = World(
    (
        launcher(main=RESULT_WAIT, progress=True),
        computing(W1, COMPUTES_IN_NUMPY, (f"dgemm_kernel@{OPENBLAS}", f"PyArray_MatrixProduct2@{NUMPY}")),
        computing(W2, COMPUTES_IN_NUMPY, (f"dgemm_kernel@{OPENBLAS}", f"PyArray_MatrixProduct2@{NUMPY}")),
    )
)


@pytest.mark.parametrize(
    "world",
    [
        pytest.param(POOL_COMPUTING, id="Pool(2) computing in Python under watch"),
        pytest.param(EXECUTOR_IN_NUMPY, id="ProcessPoolExecutor over spawn computing in numpy"),
        pytest.param(
            World(
                (
                    launcher(),
                    computing(W1, COMPUTES_IN_PYTHON, progress=False),
                    computing(W2, COMPUTES_IN_PYTHON, progress=False),
                )
            ),
            id="Pool(2) computing, inspect --tree (no progress signal)",
        ),
    ],
)
def test_a_launcher_behind_workers_that_compute_is_not_hung(world: World) -> None:
    # GIVEN a launcher waiting for its pool's results while every worker computes
    judged = world.judged()
    # THEN the workers are busy (their final judgement), and the launcher waits on healthy work
    assert verdicts(judged)[W1] is Verdict.BUSY
    assert verdicts(judged)[W2] is Verdict.BUSY
    assert not judged[L].hung, judged[L].finding.reason
    assert judged[L].verdict in (Verdict.IDLE, Verdict.BUSY), judged[L].finding.reason
    assert judged[L].behind is None


def test_a_rule_behind_another_process_names_a_process_whose_final_judgement_is_a_hang() -> None:
    # GIVEN any look: every process judged to be behind another is behind a hung one
    for world in (POOL_COMPUTING, EXECUTOR_IN_NUMPY):
        judged = world.judged()
        for pid, j in judged.items():
            if j.behind is not None:
                assert judged[j.behind].hung, (pid, j.behind)


def _worlds() -> list[tuple[str, World]]:
    """Every look the rule tables judge: the worlds of each parametrised table test."""
    import test_cycle_rules
    import test_mechanism_rules
    import test_window_rules

    out: list[tuple[str, World]] = []
    for module in (test_window_rules, test_mechanism_rules, test_cycle_rules, sys.modules[__name__]):
        for name, fn in vars(module).items():
            for mark in getattr(fn, "pytestmark", []):
                if mark.name != "parametrize":
                    continue
                for i, value in enumerate(mark.args[1]):
                    values = value.values if hasattr(value, "values") else value
                    for v in values if isinstance(values, tuple) else (values,):
                        if isinstance(v, World):
                            out.append((f"{module.__name__}.{name}[{i}]", v))
    return out


WORLDS = _worlds()


def test_the_tables_have_worlds_to_check() -> None:
    assert len(WORLDS) >= 40


@pytest.mark.parametrize("world", [w for _, w in WORLDS], ids=[n for n, _ in WORLDS])
def test_no_rule_reads_a_judgement_a_later_rule_changed(world: World) -> None:
    # GIVEN any table look, judged
    look = world.look()
    judged = judge_look(look)
    # WHEN every rule runs once more, reading those final judgements of the other processes
    # THEN no verdict changes: each rule read the final judgement of every process it looked at
    assert unsettled(look, judged) == set()


PIPE = "pipe:[77]"


@pytest.mark.parametrize(
    ("holders", "hung"),
    [
        # a shell pipeline's reader, its writer exited between the wait's read and the holders'
        # scan (the kernel would have ended the read with EOF had nobody held the write end)
        pytest.param(held(PIPE, (L, 3, "r")), False, id="write end held by no process seen: not a hang"),
        # the reader holds the write end itself, in a multiprocessing channel, its child dead
        pytest.param(held(PIPE, (L, 3, "r"), (L, 4, "w")), True, id="write end held only by itself: a hang"),
    ],
)
def test_a_pipe_whose_other_end_no_process_holds_is_a_scan_gap_not_a_gone_peer(
    holders: dict[str, tuple[Holder, ...]], hung: bool
) -> None:
    # GIVEN a process blocked reading a pipe in multiprocessing's Connection, a child of it dead
    reader = Proc(
        L,
        (Th(L, READ.format(fd=3), fd=PIPE, py=RECV),),
        zombies={W1: 256},
    )
    # WHEN judged with the pipe's holders as the scan found them
    judged = World((reader,), holders=holders).judged()
    # THEN only a write end it holds itself makes the wait endless
    assert judged[L].hung is hung, judged[L].finding.reason


QUEUE_GET = (
    ("Condition.wait", THREADING, 355),
    ("Queue.get", "/usr/lib/python3.12/queue.py", 171),
    ("queue_get", "/venv/lib/python3.12/site-packages/dask/local.py", 141),
)
MANAGER_POLLS = (
    ("wait", "/usr/lib/python3.12/multiprocessing/connection.py", 1135),
    ("_ExecutorManagerThread.wait_result_broken_or_wakeup", PROCESS, 398),
    ("_ExecutorManagerThread.run", PROCESS, 328),
)


def test_a_condition_an_executor_callback_will_notify_is_no_lost_wakeup() -> None:
    # GIVEN dask's local scheduler over processes: the main thread in queue.get(), which the
    # executor's futures' done-callbacks feed, and the executor's manager polling its pipes
    main = Th(L, LOCK.format(addr=0x5510), py=QUEUE_GET)
    manager = Th(L + 1, POLL.format(n=3, timeout=FOREVER), py=MANAGER_POLLS)
    # WHEN judged (inspect)
    j = World((Proc(L, (main, manager)),)).judged()[L]
    # THEN the manager can still end the wait (a result arrives, a callback runs): not a hang
    assert not j.hung, j.finding.reason
    assert j.verdict is Verdict.IDLE


def test_a_hang_whose_processes_exited_before_the_report_is_rendered_not_crashed() -> None:
    # GIVEN a hang result whose processes had all exited when the report was assembled
    hang = InspectResult(
        (), HostFacts(), "2026-11-27T00:00:00+00:00", ("python", "job.py"), "reports/x", by="watch"
    )
    result = WatchResult(("python", "job.py"), 42, False, "2026-11-27T00:00:00+00:00", 9.0, 3.0, hang=hang)
    # WHEN the report, the terminal's end and a plugin's lines are written
    page = render_watch(result)
    console = Console(record=True, width=200)
    print_watch(console, result)
    lines = watched_test_lines("test_x.py::test_y", hang, 3.0)
    # THEN they say so, with no IndexError (watch exited 70 on this before)
    assert page.startswith("# gvlstress watch: a hang")
    assert "its processes exited before the report" in console.export_text()
    assert "exited before the report" in lines[0]
