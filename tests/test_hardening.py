"""Hardening: tool deadlines that hold, cancels that act at once, inputs that never crash.

Real processes throughout: fake tools are shell scripts on disk, killed for real.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import psutil
import pytest

from conftest import wait_for
from gvlstress.probes import tools


@pytest.fixture
def stubborn_tool(tmp_path: Path) -> Path:
    """A tool whose grandchild leaves its session and keeps the output pipe open."""
    script = tmp_path / "stubborn"
    pidfile = tmp_path / "grandchild.pid"
    script.write_text(f"#!/bin/sh\nsetsid sh -c 'echo $$ > {pidfile}; exec sleep 150' &\nexec sleep 150\n")
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


NUMERIC_OPTIONS = [
    "workers",
    "rayon",
    "inherit_rayon",
    "waves",
    "iterations",
    "duration",
    "timeout",
    "stall",
    "stall_floor",
    "startup_grace",
    "fault_rate",
    "seed",
]


@pytest.mark.parametrize("name", NUMERIC_OPTIONS)
@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), 1e300])
def test_every_number_is_finite_and_bounded_from_the_cli_and_toml(
    name: str, value: float, tmp_path: Path
) -> None:
    from gvlstress.errors import UsageError
    from gvlstress.scenario import resolve

    option = "--" + name.replace("_", "-")
    with pytest.raises(UsageError, match=rf"^{option}: must be"):
        resolve(None, {name: value}, {name: option})
    toml = tmp_path / "s.toml"
    literal = {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(value), "1e300")
    toml.write_text(f"[scenario]\n{name} = {literal}\n")
    with pytest.raises(UsageError, match=rf"s.toml \[scenario\] {name}: must be"):
        resolve(str(toml), {})


@pytest.mark.parametrize("args", [["--timeout", "nan"], ["--duration", "inf"], ["--stall", "-inf"]])
def test_a_non_finite_option_is_one_line_and_exit_2(args: list[str]) -> None:
    from conftest import run_cli

    r = run_cli(["run", *args], timeout=60)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1
    assert "must be a finite number" in r.stderr
