"""The shipped examples (examples/): real third-party loaders under the ten-line contract."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import cli_run, run_cli, workers_of

pytestmark = pytest.mark.slow


def test_polars_example_is_healthy_and_sized_by_rayon(report_dir: Path) -> None:
    run = cli_run(
        [
            "run",
            "--target",
            "examples.polars_loader:batches",
            "--workers",
            "2",
            "--rayon",
            "3",
            "--waves",
            "1",
            "--iterations",
            "10",
        ],
        0,
        report_dir,
    )
    for w in workers_of(run):
        assert w["iterations"] == 10
        assert w["rayon_threads"] == 3  # POLARS_MAX_THREADS, which the example declares
        assert w["env_effective"]["POLARS_MAX_THREADS"] == "3"


def test_polars_example_forked_after_its_pools_started_deadlocks_and_is_named(report_dir: Path) -> None:
    run = cli_run(
        [
            "run",
            "--target",
            "examples.polars_loader:batches",
            "--start-method",
            "fork",
            "--warm-parent",
            "--workers",
            "2",
            "--rayon",
            "2",
            "--waves",
            "1",
            "--iterations",
            "10",
            "--timeout",
            "60",
        ],
        1,
        report_dir,
    )
    assert run["target"]["parent_warmed"].startswith("one batch of examples.polars_loader:batches")
    md = next(report_dir.glob("*/report.md")).read_text()
    assert "--warm-parent ran one batch of examples.polars_loader:batches" in md
    hung = [w for w in workers_of(run) if w["verdict"] == "deadlock"]
    assert hung
    for w in hung:
        assert w["diagnosis"]["pattern"] == "fork after pool start", w["diagnosis"]["summary"]


def test_numpy_example_gets_its_blas_threads_from_rayon_and_thread_env(report_dir: Path) -> None:
    run = cli_run(
        [
            "run",
            "--target",
            "examples.numpy_loader:batches",
            "--workers",
            "2",
            "--rayon",
            "2",
            "--thread-env",
            "MKL_NUM_THREADS",
            "--waves",
            "1",
            "--iterations",
            "5",
        ],
        0,
        report_dir,
    )
    for w in workers_of(run):
        assert w["target_info"]["OPENBLAS_NUM_THREADS"] == "2"
        assert w["env_effective"]["MKL_NUM_THREADS"] == "2"
    assert run["scenario"]["thread_env"] == ["MKL_NUM_THREADS"]


def test_python_works_for_every_target(report_dir: Path) -> None:
    run = cli_run(
        [
            "run",
            "--target",
            "examples.numpy_loader:batches",
            "--python",
            sys.executable,
            "--workers",
            "1",
            "--waves",
            "1",
            "--iterations",
            "2",
        ],
        0,
        report_dir,
    )
    assert run["target"]["python"] == sys.executable


def test_a_missing_or_non_python_interpreter_is_exit_2(report_dir: Path) -> None:
    for python, says in (
        ("/nonexistent/python", "not an executable file"),
        ("/bin/true", "not a Python interpreter"),
    ):
        r = run_cli(["run", "--python", python, "--report-dir", str(report_dir)], timeout=120)
        assert r.returncode == 2, r.stdout + r.stderr
        assert says in r.stderr
