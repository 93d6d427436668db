"""Diagnostic tools that cannot hurt a run: deadlines that hold (a grandchild keeping the pipe
cannot stretch them), cancels that act at once, a tool's junk or backtrace costing its view
only, and a hung tool dying with a SIGKILLed harness. Real processes: fake tools are scripts on
disk, killed for real.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from conftest import all_gone, cli_env, wait_for
from gvlstress.probes import tools

pytestmark = pytest.mark.slow


@pytest.fixture
def stubborn_tool(tmp_path: Path) -> Path:
    """A tool whose grandchild leaves its session and keeps the output pipe open."""
    script = tmp_path / "stubborn"
    pidfile = tmp_path / "grandchild.pid"
    script.write_text(
        '#!/bin/sh\n[ "$1" = --version ] && { echo "py-spy 0.0.0"; exit 0; }\n'  # answers that at once
        f"setsid sh -c 'echo $$ > {pidfile}; exec sleep 150' &\nexec sleep 150\n"
    )
    script.chmod(0o755)
    return script


def test_a_tool_deadline_holds_even_when_a_grandchild_keeps_the_pipe(stubborn_tool: Path) -> None:
    pidfile = stubborn_tool.with_name("grandchild.pid")
    started = time.monotonic()
    out = tools.run([str(stubborn_tool)], timeout=1.0)
    took = time.monotonic() - started
    assert not out.ok
    assert out.error == "timed out after 1s"
    assert took < 1.0 + tools.DRAIN_S + 1.5, took
    grandchild = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip(), 5, "the pid file"))
    wait_for(
        lambda: not psutil.pid_exists(grandchild) or psutil.Process(grandchild).status() == "zombie",
        5,
        "the grandchild to be killed",
    )


def test_cancel_kills_a_running_tool_at_once(stubborn_tool: Path) -> None:
    result: list[tools.Output] = []
    t = threading.Thread(target=lambda: result.append(tools.run([str(stubborn_tool)], timeout=60)))
    started = time.monotonic()
    t.start()
    try:
        wait_for(lambda: stubborn_tool.with_name("grandchild.pid").exists(), 10, "the tool to start")
        tools.cancel()
        t.join(10)
    finally:
        tools.reset()
    assert result
    assert result[0].error == "cancelled (the run is stopping)"
    assert time.monotonic() - started < 2 + tools.DRAIN_S + 2


def test_a_rust_backtrace_does_not_hide_the_tools_error(tmp_path: Path) -> None:
    script = tmp_path / "tool"
    script.write_text(
        "#!/bin/sh\necho 'Error: Permission denied (os error 1)' >&2\n"
        "echo 'stack backtrace:' >&2\necho '   0: py_spy::main' >&2\necho '             at src/main.rs:3' >&2\n"
        "exit 1\n"
    )
    script.chmod(0o755)
    assert tools.run([str(script)], timeout=10).error == "Error: Permission denied (os error 1)"


@contextlib.contextmanager
def hung_capture(tmp_path: Path, tool: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A harness capturing a deadlocked worker with a py-spy that hangs (and whose grandchild
    leaves its session); yields (harness, grandchild pid) once the hung tool runs."""
    harness = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "run",
            "--fault",
            "lock_across_par_iter",
            "--workers",
            "1",
            "--rayon",
            "2",
            "--waves",
            "1",
            "--report-dir",
            str(tmp_path / "r"),
        ],
        env=cli_env(GVLSTRESS_PYSPY=str(tool)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    pidfile = tool.with_name("grandchild.pid")
    try:
        text = wait_for(lambda: pidfile.exists() and pidfile.read_text().strip(), 60, "the hung tool to run")
        yield harness, int(text)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(harness.pid, signal.SIGKILL)


def test_a_hung_capture_tool_dies_with_a_sigkilled_harness(tmp_path: Path, stubborn_tool: Path) -> None:
    with hung_capture(tmp_path, stubborn_tool) as (harness, grandchild):
        tool = [psutil.Process(grandchild).ppid()]  # the tool itself (it exec'd into sleep)
        assert tool != [1]
        os.kill(harness.pid, signal.SIGKILL)
        harness.wait(10)
        wait_for(lambda: all_gone([grandchild, *tool]), 5, "the hung tool and its grandchild to be killed")
        assert tool  # the hung tool was running when the harness died
        assert all_gone([grandchild, *tool])


def test_ctrl_c_during_a_capture_of_a_hung_tool_exits_at_once(tmp_path: Path, stubborn_tool: Path) -> None:
    with hung_capture(tmp_path, stubborn_tool) as (harness, _):
        started = time.monotonic()
        os.kill(harness.pid, signal.SIGINT)
        code = harness.wait(15)
        took = time.monotonic() - started
    assert code == 130
    assert took < 2 + tools.DRAIN_S, took
    assert list((tmp_path / "r").glob("*/run.json"))  # the report is still written


def test_a_tool_printing_junk_costs_its_view_not_the_run(tmp_path: Path) -> None:
    from conftest import cli_run

    fake = tmp_path / "py-spy"
    fake.write_text(
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'py-spy 0.0.0'; exit 0; }\n"
        "python3 -c \"print('[' * 200000)\"\n"
    )
    fake.chmod(0o755)
    run = cli_run(
        ["run", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "2", "--waves", "1"],
        1,
        tmp_path / "r",
        GVLSTRESS_PYSPY=str(fake),
    )
    (w,) = run["waves"][0]["workers"]
    assert w["verdict"] == "deadlock"
    assert any(m.startswith("py-spy: py-spy output is not JSON") for m in w["diagnosis"]["missing"])


def _pyspy_failing_native(tmp_path: Path, message: str) -> tuple[Path, Path]:
    """The real py-spy behind a wrapper that fails every --native dump with `message` (as
    py-spy does on some PyO3 processes) and logs each call."""
    from gvlstress.probes import pyspy

    real = pyspy.locate()
    assert real is not None
    log = tmp_path / "calls"
    wrapper = tmp_path / "py-spy"
    wrapper.write_text(
        f'#!/bin/sh\necho "$*" >> {log}\n'
        f'case " $* " in *" --native "*) echo "Error: {message}" >&2; exit 1 ;; esac\n'
        f'exec {real} "$@"\n'
    )
    wrapper.chmod(0o755)
    return wrapper, log


@pytest.mark.parametrize(
    ("message", "retried"),
    [
        ("Failed to merge native and python frames (Have 2 native and 1 python)", True),
        ("Permission denied (os error 1)", False),
    ],
)
def test_a_failed_native_dump_falls_back_to_a_plain_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, message: str, retried: bool
) -> None:
    from gvlstress.probes import pyspy

    wrapper, log = _pyspy_failing_native(tmp_path, message)
    monkeypatch.setenv(pyspy.ENV_VAR, str(wrapper))
    proc = subprocess.Popen(
        [sys.executable, "-c", "import threading; print('ready', flush=True); threading.Event().wait()"],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        run, threads, _ = pyspy.dump(proc.pid, timeout=30)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    calls = log.read_text().splitlines()
    assert len(calls) == (2 if retried else 1)
    assert run.ok is retried
    if retried:
        assert "--native" not in run.command
        (main,) = [t for t in threads if t.tid == proc.pid]
        assert any(f.name.endswith("wait") for f in main.frames)
    else:
        assert run.error is not None
        assert "ptrace denied" in run.error


def test_a_zombie_capture_says_zombie_not_ptrace_denied() -> None:
    from gvlstress.judge.verdict import judge
    from gvlstress.probes import capture, procfs

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        wait_for(lambda: procfs.zombie_status(proc.pid) is not None, 30, "the child to exit unreaped")
        got = capture.capture(proc.pid, judge(None, None))
    finally:
        proc.wait(timeout=30)
    for run in (got.pyspy, got.native):
        assert not run.ok
        assert run.error is not None
        assert run.error.startswith("a zombie"), run.error


@pytest.mark.slow
def test_a_tool_that_hung_once_in_a_look_is_not_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every stack tool hangs (a py-spy and a pystack that never answer): a look asks each once,
    not at every one of its looks (first stacks, the Python looks between, the hot native look),
    and says why the later views are missing. Short deadlines keep the test fast; the count is the
    behaviour (each ask of a hung tool costs its whole deadline)."""
    from gvlstress.look.pipeline import look_and_judge
    from gvlstress.model.look import Subject
    from gvlstress.probes import capture

    log = tmp_path / "asked.log"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("py-spy", "pystack"):
        tool = bin_dir / name
        tool.write_text(f"#!/bin/sh\necho {name} >> {log}\nexec sleep 300\n")
        tool.chmod(0o755)
    monkeypatch.setenv("GVLSTRESS_PYSPY", str(bin_dir / "py-spy"))
    monkeypatch.setenv("GVLSTRESS_NATIVE_TOOL", "pystack")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(capture, "PYSPY_TIMEOUT_S", 1.0)
    monkeypatch.setattr(capture, "NATIVE_TIMEOUT_S", 2.0)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    try:
        seen = look_and_judge([Subject(busy.pid)], window=2.0)
    finally:
        os.killpg(busy.pid, signal.SIGKILL)
        busy.wait(10)
    asked = log.read_text().split()
    assert asked.count("py-spy") == 1, asked
    assert asked.count("pystack") == 1, asked
    cap = seen.look.processes[busy.pid].capture
    assert cap is not None
    assert not cap.pyspy.ok
    assert "timed out" in (cap.pyspy.error or "")
