"""The race target: real, pinned races from PyPI (logly#122, h5py#2584) that `run` provokes,
catches and names, and their fixed releases that never hang. The pinned venvs are built once in
the cache (pip downloads), so these run under the `pypi` marker: `pytest -m pypi tests/test_races.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import cli_run, run_cli

pytestmark = [pytest.mark.slow, pytest.mark.pypi, pytest.mark.timeout(1200)]

NAMED = {"logly": "GIL <-> native lock inversion", "h5py": "fork while another thread held a lock"}
HOT = {"logly": ["-o", "lines=100", "-o", "switch_s=0.0005"], "h5py": ["-o", "forks=5"]}
"""Settings where the buggy release hangs within a few hundred batches (measured: ~1 in 15 and 1 in 25)."""


def race_run(report_dir: Path, race: str, code: int, *extra: str) -> dict[str, Any]:
    """Three waves of two workers on the race at its hot setting (run.json)."""
    args = [
        "run",
        "--target",
        "race",
        "-o",
        f"race={race}",
        *extra,
        *HOT[race],
        "--workers",
        "2",
        "--waves",
        "3",
    ]
    return cli_run([*args, "--iterations", "400"], code, report_dir)


@pytest.mark.parametrize("race", sorted(NAMED))
def test_the_buggy_release_hangs_and_is_named(report_dir: Path, race: str) -> None:
    run = race_run(report_dir, race, 1)
    hung = [w for wave in run["waves"] for w in wave["workers"] if w["verdict"] == "deadlock"]
    assert hung, "no wave hung"
    assert {w["diagnosis"]["pattern"] for w in hung} == {NAMED[race]}


@pytest.mark.parametrize("race", sorted(NAMED))
def test_the_fixed_release_never_hangs_under_the_same_load(report_dir: Path, race: str) -> None:
    run = race_run(report_dir, race, 0, "-o", "fixed=true")
    assert all(w["verdict"] == "ok" for w in run["waves"])
    assert run["target"]["facts"]["fixed"] is True


def test_a_race_is_named_or_refused_in_one_line(tmp_path: Path) -> None:
    r = run_cli(["run", "--target", "race", "-o", "race=nope", "--report-dir", str(tmp_path)], timeout=60)
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()
    assert "race must be one of logly, h5py" in line
