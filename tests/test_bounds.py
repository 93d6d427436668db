"""Every value is bounded and every bad one is one line with a documented exit code: numbers
from the command line and from scenario files, odd scenario files, a closed stdout pipe.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GVL, cli_env

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
    from gvlstress.scenario_sources import resolve

    option = "--" + name.replace("_", "-")
    with pytest.raises(UsageError, match=rf"^{option}: must be"):
        resolve(None, {name: value}, {name: option})
    toml = tmp_path / "s.toml"
    literal = {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(value), "1e300")
    toml.write_text(f"[scenario]\n{name} = {literal}\n")
    with pytest.raises(UsageError, match=rf"s.toml \[scenario\] {name}: must be"):
        resolve(str(toml), {})


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--timeout", "nan"], ["--duration", "inf"], ["--stall", "-inf"]])
def test_a_non_finite_option_is_one_line_and_exit_2(args: list[str]) -> None:
    from conftest import run_cli

    r = run_cli(["run", *args], timeout=60)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1
    assert "must be a finite number" in r.stderr


@pytest.mark.slow
def test_odd_scenario_files_and_names_are_usage_errors_or_fine(tmp_path: Path) -> None:
    from conftest import run_cli

    deep = tmp_path / "deep.toml"
    deep.write_text("[scenario]\nx = " + "[" * 100_000 + "]" * 100_000 + "\n")
    r = run_cli(["run", "--scenario", str(deep)], timeout=60)
    assert r.returncode == 2
    assert "not valid TOML" in r.stderr
    long = tmp_path / "long.toml"
    long.write_text(f'[scenario]\nname = "{"n" * 300}"\nworkers = 1\nwaves = 1\niterations = 1\n')
    r = run_cli(["run", "--scenario", str(long), "--report-dir", str(tmp_path / "r")], timeout=120)
    assert r.returncode == 0, r.stderr
    (run_dir,) = (tmp_path / "r").iterdir()
    assert len(run_dir.name) < 120


@pytest.mark.slow
def test_a_closed_stdout_pipe_does_not_change_the_exit_code(tmp_path: Path) -> None:
    # GIVEN `gvlstress inspect PID | head -1`: the reader goes away before the harness is done
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)
    try:
        r, w = os.pipe()
        os.close(r)  # nobody will ever read
        proc = subprocess.run(
            [*GVL, "inspect", str(idle.pid), "--report-dir", str(tmp_path)],
            stdout=w,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(),
            timeout=120,
            check=False,
        )
        os.close(w)
    finally:
        idle.kill()
        idle.wait(10)
    # THEN it still exits with its verdict's code (idle: 0), saying nothing about the pipe
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


@pytest.mark.slow
def test_window_nan_is_a_usage_error() -> None:
    from conftest import run_cli

    r = run_cli(["inspect", str(os.getpid()), "--window", "nan"], timeout=60)
    assert r.returncode == 2
    assert "--window: must be a finite number" in r.stderr
