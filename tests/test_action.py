"""The GitHub Action (action.yml, composite) run here as a runner would run its steps: GitHub's
environment variables set by hand (the files a step writes to), the install step over this
environment, a real hang under `gvlstress run`, and the summary step's verdict and fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

LIVE = (pytest.mark.slow, pytest.mark.timeout(300))
"""The steps that start processes (the action.yml check starts none: fast tier)."""


def github_env(tmp_path: Path, **more: str) -> dict[str, str]:
    files = {
        name: tmp_path / name.lower()
        for name in ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY")
    }
    for f in files.values():
        f.touch()
    return {
        **os.environ,
        **{k: str(v) for k, v in files.items()},
        "GITHUB_ACTION_PATH": str(ROOT),
        "RUNNER_TEMP": str(tmp_path),
        "GVLSTRESS_VENV": sys.prefix,  # this environment has gvlstress: the install step keeps it
        **more,
    }


def step(script: str, env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    runner = (
        ["bash", str(ROOT / "action" / script)]
        if script.endswith(".sh")
        else [sys.executable, str(ROOT / "action" / script)]
    )
    return subprocess.run(
        [*runner, *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=240,
        start_new_session=True,
        check=False,
    )


def test_action_yml_runs_the_three_steps_and_uploads_the_reports() -> None:
    text = (ROOT / "action.yml").read_text()
    assert "using: composite" in text
    for script in ("action/install.sh", "action/run.sh", "action/summary.py"):
        assert script in text
        assert (ROOT / script).exists()
    assert "uses: actions/upload-artifact@v4" in text
    assert "path: ${{ inputs.report-dir }}" in text
    assert 'exit "${{ steps.run.outputs.exit-code }}"' in text


@LIVE[0]
@LIVE[1]
def test_a_hang_under_run_is_reported_with_its_fix_in_the_job_summary(tmp_path: Path) -> None:
    command = "run --fault lock_across_par_iter --fault-rate 1 --workers 1 --rayon 2 --waves 1"
    env = github_env(
        tmp_path, GVLSTRESS_COMMAND=command, GVLSTRESS_REPORT_DIR="reports", GVLSTRESS_WATCH_S="60"
    )
    installed = step("install.sh", env, tmp_path)
    assert installed.returncode == 0, installed.stderr
    assert f"GVLSTRESS_VENV={sys.prefix}" in (tmp_path / "github_env").read_text()
    ran = step("run.sh", env, tmp_path)
    assert ran.returncode == 0, (
        ran.stderr
    )  # the step succeeds; the action's last step fails as the command did
    assert "exit-code=1" in (tmp_path / "github_output").read_text()
    summary = step("summary.py", env, tmp_path, "reports")
    assert summary.returncode == 0, summary.stderr
    written = (tmp_path / "github_step_summary").read_text()
    assert written.startswith("### gvlstress: deadlock (")
    assert "**Fix:** " in written
    assert "verdict=deadlock" in (tmp_path / "github_output").read_text()


@LIVE[0]
@LIVE[1]
def test_an_empty_command_fails_with_a_usage_exit_and_no_report(tmp_path: Path) -> None:
    env = github_env(tmp_path, GVLSTRESS_COMMAND="  ", GVLSTRESS_REPORT_DIR="reports")
    ran = step("run.sh", env, tmp_path)
    assert "exit-code=2" in (tmp_path / "github_output").read_text()
    assert "the command input is empty" in ran.stderr
    summary = step("summary.py", env, tmp_path, "reports")
    assert "No report was written" in (tmp_path / "github_step_summary").read_text(), summary.stdout
    assert "verdict=none" in (tmp_path / "github_output").read_text()
