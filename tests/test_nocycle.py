"""Hangs with no lock cycle, on real processes: named by `run` at the stall and by `inspect`,
and their healthy look-alikes never called a hang.

The hangs come from the standard library and the native fixture (so they run everywhere): a
``multiprocessing.Pool`` task that calls ``os._exit`` (bpo-22393: the task is lost), a task
whose exception cannot be rebuilt in the parent (bpo-35311: the result handler dies), a child
that exits while its parent kept their pipe's other end (the peer has gone), and the fixture's
``gil_spin`` (the GIL's holder busy-waits for jobs that call back into Python). The real bugs
from PyPI live in the catalogue (tests/test_realbugs.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import psutil
import pytest

from conftest import cli_run, load_run
from gvlstress.judge import names
from gvlstress.model.watch import Stop
from gvlstress.probes import progress
from test_real_processes import inspect, shape, the

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

TIMEOUT = 90


def _run(report_dir: Path, *args: str, code: int = 1) -> dict[str, Any]:
    return cli_run(
        ["run", "--workers", "2", "--waves", "1", "--timeout", str(TIMEOUT), "--stall-floor", "1", *args],
        code,
        report_dir,
        timeout=TIMEOUT + 120,
    )


@pytest.mark.parametrize(
    ("args", "verdict", "pattern"),
    [
        (
            ("--target", "shapes", "-o", "mode=lost_task", "-o", "every=2", "--iterations", "4"),
            "deadlock",
            names.LOST_TASK,
        ),
        (
            ("--target", "shapes", "-o", "mode=lost_result", "-o", "every=2", "--iterations", "4"),
            "deadlock",
            names.LOST_RESULTS,
        ),
        (
            ("--target", "shapes", "-o", "mode=peer_gone", "-o", "every=2", "--iterations", "4"),
            "deadlock",
            names.PEER_GONE,
        ),
        (("--fault", "gil_spin", "--fault-rate", "1", "--rayon", "4"), "livelock", names.GIL_SPIN),
    ],
    ids=["lost-task", "lost-result", "peer-gone", "gil-spin"],
)
def test_run_names_each_shape_at_the_stall(
    report_dir: Path, args: tuple[str, ...], verdict: str, pattern: str
) -> None:
    """Named when the heartbeat goes quiet, long before the launch timeout; report.md explains."""
    run = _run(report_dir, *args)
    wave = run["waves"][0]
    either = {verdict, "livelock"} if pattern == names.LOST_RESULTS else {verdict}
    assert wave["verdict"] in either
    assert wave["detected_by"] == "stall"
    assert wave["detect_s"] < TIMEOUT / 3
    hung = [w for w in wave["workers"] if w["verdict"] in either]
    assert hung
    assert all(w["diagnosis"]["pattern"] == pattern for w in hung)
    (report,) = report_dir.glob("*/report.md")
    assert pattern in report.read_text()


@pytest.mark.parametrize("mode", ["pool", "child"])
def test_run_never_calls_their_look_alikes_a_hang(report_dir: Path, mode: str) -> None:
    """A Pool task that sleeps past the stall floor; a child that writes late: slow, exit 0."""
    run = _run(
        report_dir,
        "--target",
        "shapes",
        "-o",
        f"mode={mode}",
        "-o",
        "every=2",
        "-o",
        "block_s=2.5",
        "--iterations",
        "4",
        code=0,
    )
    assert {w["verdict"] for w in run["waves"][0]["workers"]} <= {"ok", "slow"}


@pytest.mark.parametrize(
    ("kind", "api", "start"),
    [
        ("compute", "pool", "fork"),
        ("sleep", "ppe", "fork"),
        ("io", "pool", "fork"),
        ("between", "pool", "fork"),
        ("between", "ppe", "fork"),
        ("shutdown", "ppe", "fork"),
        ("compute", "pool", "forkserver"),
        ("sleep", "ppe", "forkserver"),
        ("sleep", "pool", "spawn"),
        ("starting", "pool", "spawn"),
        ("starting", "ppe", "spawn"),
        ("starting", "pool", "forkserver"),
    ],
)
def test_a_pool_whose_result_will_come_is_never_a_hang(
    report_dir: Path, kind: str, api: str, start: str
) -> None:
    """The launcher waits as in a lost task, but a worker is inside its task (or none is owed, or
    the workers are still importing the main module): every process idle or busy, exit 0.
    ``shutdown`` is the reported false alarm: leaving a ProcessPoolExecutor's `with` joins its
    manager thread while a task sleeps; under forkserver (Python 3.14's default on Linux) the
    workers are the forkserver's children, and were once missed for a pool with no worker left."""
    with shape("pool_alike", kind, api, start) as (proc, _):
        code, data = inspect(proc.pid, report_dir, "--tree")
    assert code == 0, [p["diagnosis"]["summary"] for p in data["processes"]]
    assert {p["diagnosis"]["verdict"] for p in data["processes"]} <= {"idle", "busy"}


def _interpreters() -> list[str]:
    """CPython 3.12 and 3.13 where pyenv (or PATH) has them: the executor's internals differ."""
    out = []
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    for v in ("3.12", "3.13"):
        found = next((str(p) for p in sorted(root.glob(f"versions/{v}.*/bin/python{v}"))), None)
        if found is None and (which := shutil.which(f"python{v}")) and "/shims/" not in which:
            found = which
        if found:
            out.append(found)
    return out


@pytest.mark.parametrize(
    "python", _interpreters() or [pytest.param("", marks=pytest.mark.skip("no 3.12/3.13"))]
)
def test_executor_shutdown_is_idle_on_other_pythons(report_dir: Path, python: str) -> None:
    """3.13 joins in Thread.join (no _wait_for_tstate_lock frame): still not a deadlock."""
    with shape("pool_alike", "shutdown", "ppe", python=python) as (proc, _):
        code, data = inspect(proc.pid, report_dir, "--tree")
    assert code == 0, the(data, proc.pid)["diagnosis"]["summary"]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("slow_peer", "which hold the other end and may still act"),
        ("py_loop", "CPU-s burnt"),
        ("polars_loop", "CPU-s burnt"),
    ],
)
def test_a_slow_peer_and_real_compute_are_not_hangs(report_dir: Path, name: str, says: str) -> None:
    """A client whose server answers later (its peer is alive); a Python loop that advances and
    a rayon kernel (their stacks or lines move): idle or busy, never a named spin."""
    with shape(name) as (proc, _):
        code, data = inspect(proc.pid, report_dir)
    p = the(data, proc.pid)
    assert code == 0, p["diagnosis"]["summary"]
    assert says in p["diagnosis"]["summary"] + " ".join(p["diagnosis"]["evidence"])


def test_inspect_names_the_gil_spin_and_what_it_waits_for(report_dir: Path) -> None:
    with shape("gil_spin") as (proc, _):
        code, data = inspect(proc.pid, report_dir)
    p = the(data, proc.pid)
    assert code == 1
    assert p["diagnosis"]["verdict"] == "livelock"
    assert p["diagnosis"]["pattern"] == names.GIL_SPIN
    assert any("wait for the GIL in take_gil" in line for line in p["diagnosis"]["evidence"])


def test_inspect_without_tree_leaves_a_lost_task_to_tree(report_dir: Path) -> None:
    """The launcher alone cannot tell a lost task from a working pool: idle, and --tree says."""
    with shape("pool_kill") as (_, lines):
        pid = int(next(x for x in lines if x.startswith("look ")).split()[1])
        code, data = inspect(pid, report_dir / "alone")
        assert code == 0
        code, data = inspect(pid, report_dir / "tree", "--tree")
    assert code == 1
    assert the(data, pid)["diagnosis"]["pattern"] == names.LOST_TASK


def test_a_lost_tasks_evidence_is_in_run_json(report_dir: Path) -> None:
    """run.json of a lost task carries the evidence: the workers that wait for a task, the
    launcher's wait, nothing in flight."""
    _run(report_dir, "--target", "shapes", "-o", "mode=lost_task", "-o", "every=2", "--iterations", "4")
    run = load_run(report_dir)
    hung = next(w for w in run["waves"][0]["workers"] if w["verdict"] == "deadlock")
    evidence = " ".join(hung["diagnosis"]["evidence"])
    assert "wait for a task, at every look over the window" in evidence
    assert "no byte waits in any pipe" in evidence


def test_a_stopped_tool_whose_shell_does_job_control_is_never_a_hang(report_dir: Path) -> None:
    """The look-alike of `stopped_by_terminal` (a hang in the agreement table): the same tool
    stopped by its terminal's job control, but its shell waits with WUNTRACED, was told of the
    stop and continues it after a timer, as `fg` does: no process of the tree is a hang."""
    with shape("stopped_by_terminal", "alike") as (proc, lines):
        shell = int(next(x for x in lines if x.startswith("look ")).split()[1])
        (tool,) = psutil.Process(shell).children()
        stops = progress.stopped([proc.pid, shell, tool.pid])  # /proc tells job control's stop
        tty = os.stat(f"/proc/{tool.pid}/fd/0").st_rdev  # the pty the tool set: its terminal
        code, data = inspect(proc.pid, report_dir, "--tree")
    assert stops == (Stop(tool.pid, tty),)
    said = {p["pid"]: p["diagnosis"]["verdict"] for p in data["processes"]}
    assert code == 0, [p["diagnosis"]["summary"] for p in data["processes"]]
    assert said[shell] == "idle"
    assert "stopped" in said.values()
    assert not {"deadlock", "livelock", "stalled"} & set(said.values()), said


def test_the_terminal_above_a_tool_stopped_for_good_is_behind_its_shell(report_dir: Path) -> None:
    """`stopped_by_terminal`'s hang whole (its shell's name is in the agreement table): the
    emulator reading the pty is blocked behind the shell (the slave's other holder, the tool,
    is stopped in the shell's hang), and the tool is stopped, not a hang of its own."""
    with shape("stopped_by_terminal") as (proc, lines):
        shell = int(next(x for x in lines if x.startswith("look ")).split()[1])
        code, data = inspect(proc.pid, report_dir, "--tree")
    said = {p["pid"]: p["diagnosis"] for p in data["processes"]}
    assert code == 1
    assert (said[shell]["verdict"], said[shell]["pattern"]) == ("deadlock", names.STOPPED_CHILD)
    assert (said[proc.pid]["verdict"], said[proc.pid]["pattern"]) == ("deadlock", names.STOPPED_CHILD)
    assert f"blocked behind process(es) {shell}, deadlocked themselves (and " in said[proc.pid]["summary"]
    assert sorted(d["verdict"] for d in said.values()) == ["deadlock", "deadlock", "stopped"]


@pytest.mark.parametrize("mode", ["event", "loop"])
def test_a_wait_for_a_live_childs_sigchld_is_never_a_hang(report_dir: Path, mode: str) -> None:
    """One thread waits for its child's exit through a SIGCHLD handler (an Event the handler
    sets; an asyncio loop's `add_signal_handler`): no thread can end the wait, but the child lives,
    and its exit sends the signal (it was called a lost wake-up: blind corpus 7's tornado
    look-alike, `Subprocess.wait_for_exit()`)."""
    with shape("sigchld_wait", mode) as (proc, _):
        code, data = inspect(proc.pid, report_dir, "--tree")
    said = the(data, proc.pid)["diagnosis"]
    assert code == 0, said["summary"]
    assert said["verdict"] == "idle"
    assert "catches SIGCHLD" in said["summary"]


def test_a_sigchld_wait_whose_child_was_reaped_first_is_still_a_lost_wakeup(report_dir: Path) -> None:
    """The same Event wait, the child reaped before it (its SIGCHLD came and went): no child is
    left to send one, so nothing can end the wait."""
    with shape("sigchld_wait", "reaped") as (proc, _):
        code, data = inspect(proc.pid, report_dir, "--tree")
    said = the(data, proc.pid)["diagnosis"]
    assert code == 1, said["summary"]
    assert (said["verdict"], said["pattern"]) == ("deadlock", names.LOST_WAKEUP)
